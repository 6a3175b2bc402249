export {
  type ArtifactMcpServerSettings,
  createArtifactMcpServer,
} from './create-artifact-mcp-server.js';
export {
  createMcpProxy,
  type McpCompactedResult,
  type McpProxySettings,
} from './create-mcp-proxy.js';
