import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRunReport } from './format-run-report.js';
import { type DevopsAgentRun, runDevopsAgent } from './run-devops-agent.js';

const sizeOf = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

describe('formatRunReport', () => {
  let dir: string;
  let run: DevopsAgentRun;
  let report: string;
  const row = (stepId: string) => report.split('\n').find((line) => line.startsWith(stepId))!;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devops-report-'));
    run = await runDevopsAgent({ env: {}, transcriptPath: join(dir, 'session.jsonl') });
    report = formatRunReport(run);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('names the token counter once', () => {
    expect(report.split(run.compaction.tokenCounter.name).length - 1).toBe(1);
  });

  it('writes sizes in KiB and MiB, as they are counted', () => {
    expect(report).not.toMatch(/\d (KB|MB)\b/);
    expect(row('step-1')).toMatch(/\d+\.\d KiB → \d+\.\d KiB/);
    expect(row('step-4')).toMatch(/\d+\.\d\d MiB → \d+\.\d KiB/);
  });

  it('says what was done to each result in the words the README uses', () => {
    expect(row('step-1')).toContain('trimmed (JSON) + stored');
    expect(row('step-2')).toContain('trimmed (text) + stored');
    expect(row('step-3')).toContain('failed-operation evidence (complete)');
    expect(row('step-4')).toContain('trimmed (text) + stored');
    expect(report).toContain('The 3 results that did not fit whole are stored in full in ');
  });

  it('gives one time for the whole assembly, since the results are compacted concurrently', () => {
    expect(report).not.toMatch(/^step\s.*\btime\b/m);
    for (const id of ['step-1', 'step-2', 'step-3', 'step-4']) expect(row(id)).not.toMatch(/ ms\b/);
    expect(report).toContain(`Assembled in ${run.synthesisMs.toFixed(0)} ms`);
  });

  it('counts the total on the prompt as sent and says how it relates to the rows', () => {
    const count = (text: string) => run.compaction.tokenCounter.countTokens(text);
    const total = count(run.synthesis.text);
    const rows = run.synthesis.sections.reduce((sum, section) => sum + count(section.text), 0);
    expect(report).toContain(`whole prompt: ${sizeOf(run.synthesis.bytes)} and ${total} tokens`);
    if (rows !== total)
      expect(report).toContain(`(counted as sent: the rows sum to ${rows} tokens;`);
    else expect(report).not.toContain('the rows sum to');
  });
});
