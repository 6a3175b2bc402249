export { artifactFollowingModel } from './artifact-following-model.js';
export { type ArtifactViewReport, checkArtifactView } from './check-artifact-view.js';
