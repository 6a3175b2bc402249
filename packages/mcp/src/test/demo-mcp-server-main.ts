#!/usr/bin/env node
// The demo MCP server over stdio, for tests that front a real server process.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createDemoMcpServer } from './create-demo-mcp-server.js';

const { server } = createDemoMcpServer();
await server.connect(new StdioServerTransport());
