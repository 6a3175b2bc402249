#!/usr/bin/env node
import Anthropic from '@anthropic-ai/sdk';
import { runAnthropicToolLoop } from './run-anthropic-tool-loop.js';
import { runExample } from './tool-loop-main.js';

const key = process.env.ANTHROPIC_API_KEY;
await runExample('Anthropic', Boolean(key), ({ baseURL, transcriptPath }) =>
  runAnthropicToolLoop({
    client: new Anthropic({ apiKey: key || 'local', ...(baseURL ? { baseURL } : {}) }),
    model: process.env.ANTHROPIC_MODEL ?? 'claude-haiku-4-5',
    transcriptPath,
    log: (line) => console.log(line),
  }),
);
