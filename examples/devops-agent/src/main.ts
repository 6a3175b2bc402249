#!/usr/bin/env node
import { join } from 'node:path';
import { byteEstimateTokenCounter } from '@compaction/core';
import { formatRunReport } from './format-run-report.js';
import { modelFromEnv } from './model-from-env.js';
import { pnpmCommand } from './pnpm-command.js';
import { runDevopsAgent } from './run-devops-agent.js';

const env = process.env;
const aiClient = modelFromEnv(env);
if (aiClient) {
  console.log(
    `Model: ${aiClient.provider} (distillation on; set COMPACTION_RESULT_DISTILL_ENABLED=false to compare with the floor)`,
  );
} else {
  console.log(
    'No model configured (OPENAI_API_KEY, OPENAI_BASE_URL or ANTHROPIC_API_KEY): running offline on the structural floor.\n' +
      'Every result is still compacted, disclosed and checked below; set a key to see distillation and map-reduce.',
  );
}
// gpt-tokenizer is optional: with it, routing and the report count o200k tokens exactly; without
// it, UTF-8 bytes / 3.5, which undercounts logs and numbers.
const tokenCounter = await import('@compaction/core/gpt-tokenizer').then(
  ({ createGptTokenCounter }) => createGptTokenCounter(),
  () => byteEstimateTokenCounter,
);
// Full results go beside a session transcript in .demo/ (git-ignored), one session per run.
const transcriptPath = join(
  process.cwd(),
  '.demo',
  `devops-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`,
);
const run = await runDevopsAgent({
  env,
  aiClient,
  transcriptPath,
  tokenCounter,
  log: (line) => console.log(line),
});
console.log(formatRunReport(run, { pnpm: pnpmCommand(env) }));
