export {
  type ArtifactMcpServerSettings,
  createArtifactMcpServer,
} from './create-artifact-mcp-server.js';
