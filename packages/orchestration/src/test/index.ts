export { type ArtifactViewReport, checkArtifactView } from './check-artifact-view.js';
