#!/usr/bin/env node
import OpenAI from 'openai';
import { runOpenAIToolLoop } from './run-openai-tool-loop.js';
import { runExample } from './tool-loop-main.js';

const key = process.env.OPENAI_API_KEY;
await runExample(
  'OpenAI',
  Boolean(key || process.env.OPENAI_BASE_URL),
  ({ baseURL, transcriptPath }) =>
    runOpenAIToolLoop({
      client: new OpenAI({ apiKey: key || 'local', ...(baseURL ? { baseURL } : {}) }),
      model: process.env.OPENAI_MODEL ?? 'gpt-5-mini',
      transcriptPath,
      log: (line) => console.log(line),
    }),
);
