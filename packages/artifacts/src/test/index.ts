export {
  type ArtifactFault,
  type ArtifactFileOperation,
  createFaultyArtifactFileSystem,
  type FaultyArtifactFileSystemSettings,
  type InjectedFault,
} from './faulty-artifact-file-system.js';
