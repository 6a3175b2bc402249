import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trailingDisclosureNotes } from '@compaction/core';
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

  it('prints the disclosure notes themselves, as the README promises, not their kinds', () => {
    const notes = run.synthesis.sections.flatMap((section) =>
      trailingDisclosureNotes(section.text).map((note) => ({ step: section.stepId, note })),
    );
    expect(notes.length).toBeGreaterThan(0);
    for (const { step, note } of notes) expect(report).toContain(`${step}  ${note.text}`);
    expect(row('step-1')).not.toMatch(/\btrimmed$/);
    expect(row('step-4')).not.toMatch(/severely-reduced/);
  });

  it('shows the planner view of every step the run took', () => {
    expect(run.steps).toHaveLength(4);
    expect(report).toMatch(/, 4 of 4 steps shown\n/);
    expect(report).not.toContain('3 of 3 steps shown');
    expect(row('step-4')).toBeDefined();
    const views = report
      .split('\n')
      .filter((line) => /^step-\d\s+(digest|preview|summary|failed)\b/.test(line));
    expect(views.map((line) => line.split(/\s+/)[0])).toEqual([
      'step-1',
      'step-2',
      'step-3',
      'step-4',
    ]);
  });

  it('ends the offline answer on whole lines and whole JSON values, never a fragment', () => {
    const evidence = run.answer.split('\n').filter((line) => line.startsWith('    '));
    expect(evidence.length).toBeGreaterThan(0);
    for (const line of evidence) {
      expect(line).not.toMatch(/[,{[:]$/);
      // A JSON member: its path and its whole value.
      const member = /^ {4}(\S*[.[]\S*) = (".*)$/.exec(line);
      if (member) expect(() => JSON.parse(member[2]!), line).not.toThrow();
    }
    expect(run.answer).toMatch(/\.reason = "CrashLoopBackOff"$/m);
    expect(run.answer).toMatch(/\.reason = "OOMKilled"$/m);
    expect(run.answer).toContain('connection pool exhausted');
  });

  it('gives its hints in the form the demo was started with, as the README writes them', () => {
    expect(report).toContain('pnpm exec compaction serve --dir .demo');
    const viaNpx = formatRunReport(run, { pnpm: 'npx -y pnpm@12.4.2' });
    expect(viaNpx).toContain('npx -y pnpm@12.4.2 exec compaction serve --dir .demo');
    expect(viaNpx).toContain('npx -y pnpm@12.4.2 exec compaction mcp --dir .demo');
    expect(viaNpx).not.toMatch(/(?<!pnpm@12\.4\.2 )\bexec compaction/);
  });
});
