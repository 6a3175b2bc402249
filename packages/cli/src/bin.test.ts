import { describe, expect, it } from 'vitest';
import { binaryBuilt, runBinary } from './test-support/run-binary.js';

describe.skipIf(!binaryBuilt())('the built compaction binary', () => {
  it('prints help and exits 0', () => {
    const { status, stdout } = runBinary(['--help']);
    expect(status).toBe(0);
    expect(stdout).toContain('Usage: compaction <command>');
  });

  it('prints the config as JSON on stdout only, with env values applied', () => {
    const { status, stdout, stderr } = runBinary(['config', '--json'], {
      env: { COMPACTION_CONTINUATION_MAX_ESCALATIONS: '0' },
    });
    expect(status).toBe(0);
    expect(stderr).toBe('');
    const knob = JSON.parse(stdout).knobs.find(
      (k: { path: string }) => k.path === 'continuation.maxEscalations',
    );
    expect(knob).toMatchObject({ value: 0, source: 'env' });
  });

  it('never prints the cache secret, only that it is set', () => {
    const secret = 'do-not-print-me';
    const json = runBinary(['config', '--json'], {
      env: { COMPACTION_RESULT_DISTILL_CACHE_SECRET: secret },
    });
    const text = runBinary(['config'], { env: { COMPACTION_RESULT_DISTILL_CACHE_SECRET: secret } });
    for (const run of [json, text]) {
      expect(run.status).toBe(0);
      expect(run.stdout + run.stderr).not.toContain(secret);
    }
    const knob = JSON.parse(json.stdout).knobs.find(
      (k: { path: string }) => k.path === 'distill.cacheSecret',
    );
    expect(knob).toMatchObject({ value: '(set)', source: 'env' });
  });

  it('exits 2 on bad usage with a message on stderr and nothing on stdout', () => {
    const { status, stdout, stderr } = runBinary(['nope']);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain("unknown command 'nope'");
  });

  it('--otel writes spans and metrics to stderr as JSON lines and leaves stdout unchanged', () => {
    const input = Array.from({ length: 20_000 }, (_, i) => `line ${i} INFO ok`).join('\n');
    const plain = runBinary(['trim', '--budget', '2000', '-'], { input });
    const traced = runBinary(['--otel', 'trim', '--budget', '2000', '-'], { input });
    expect(traced.status).toBe(0);
    expect(traced.stdout).toBe(plain.stdout);
    const lines = traced.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const span = lines.find((line) => line.span === 'result_trim.completed');
    expect(span.attributes['compaction.content_lost']).toBe(true);
    expect(span.attributes['compaction.original_bytes']).toBeGreaterThan(300_000);
  });

  it('every command has help with examples, and help exits 0', () => {
    const list = runBinary(['--help']).stdout;
    const names = [...list.matchAll(/^ {2}([a-z]+) {2}/gm)].map((match) => match[1]!);
    expect(names.length).toBeGreaterThanOrEqual(9);
    for (const name of names) {
      const { status, stdout } = runBinary([name, '--help']);
      expect(status).toBe(0);
      expect(stdout).toContain(`Usage: compaction ${name}`);
      expect(stdout).toContain('Examples:');
    }
  });
});
