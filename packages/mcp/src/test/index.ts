export { createDemoMcpServer, type DemoMcpServerStats } from './create-demo-mcp-server.js';
