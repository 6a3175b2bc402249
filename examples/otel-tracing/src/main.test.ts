import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const built = existsSync(main);
if (!built && process.env.CI === 'true')
  throw new Error(`${main} is missing: build before testing`);

describe.skipIf(!built)('the OpenTelemetry example', () => {
  it('runs with the Node SDK and reports compaction spans, events and metrics', () => {
    const env = { ...process.env };
    for (const key of Object.keys(env))
      if (/^(COMPACTION_|OPENAI_|ANTHROPIC_)/.test(key)) delete env[key];
    const run = spawnSync(process.execPath, [main], { env, encoding: 'utf8', timeout: 120_000 });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('compaction.result_distill ×3');
    expect(run.stdout).toContain('result_distill.mapreduce_complete');
    expect(run.stdout).toContain('result_trim.completed');
    expect(run.stdout).toContain('compaction.continuation_budget');
    expect(run.stdout).toMatch(/compaction\.result_distill\.duration = [\d.]+ s/);
  });
});
