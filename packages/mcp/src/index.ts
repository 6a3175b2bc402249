export {
  type ArtifactMcpServerSettings,
  createArtifactMcpServer,
  LIST_PAGE,
} from './create-artifact-mcp-server.js';
export {
  createMcpProxy,
  type McpProxySettings,
  mcpProxyClientCapabilities,
} from './proxy/create-mcp-proxy.js';
export {
  createStdioUpstreamTransport,
  type SpawnServer,
  type StdioUpstreamTransport,
  type StdioUpstreamTransportSettings,
} from './proxy/create-stdio-upstream-transport.js';
export type { McpCompactedResult } from './proxy/mcp-compacted-result.js';
export { upstreamServerEnv } from './proxy/upstream-server-env.js';
export {
  type ArtifactMcpToolName,
  type RegisterArtifactToolsSettings,
  registerArtifactTools,
} from './register-artifact-tools.js';
