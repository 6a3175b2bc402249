import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binaryBuilt, runBinary } from '../test-support/run-binary.js';

const dir = mkdtempSync(join(tmpdir(), 'compaction-digest-'));

function lokiResponse(): string {
  const result = Array.from({ length: 200 }, (_, i) => ({
    stream: { app: 'api', pod: `api-${i}` },
    values: Array.from({ length: 5 }, (_, j) => [
      `${1714564800000000000n + BigInt(i * 10 + j)}`,
      `level=info msg="request ${j}" ${'detail '.repeat(40)}`,
    ]),
  }));
  return JSON.stringify({ status: 'success', data: { resultType: 'streams', result } });
}

describe.skipIf(!binaryBuilt())('compaction digest (built binary)', () => {
  it('prints exactly the digest JSON of a result on stdin', () => {
    const { status, stdout, stderr } = runBinary(['digest'], { input: lokiResponse() });
    expect(status).toBe(0);
    expect(stderr).toBe('');
    expect(stdout.endsWith('\n')).toBe(true);
    const digest = JSON.parse(stdout);
    expect(digest.data.result.at(-1)).toBe('…197 more of 200');
    expect(Buffer.byteLength(stdout)).toBeLessThan(1024);
    expect(stdout).toContain('"1714564800000000000"');
  });

  it('keeps 64-bit numbers byte for byte and reports its accounting with --json', () => {
    const file = join(dir, 'ids.json');
    writeFileSync(file, '{"id":12345678901234567890,"tags":["a","b","c","d"]}');
    const plain = runBinary(['digest', file]);
    expect(plain.stdout).toBe('{"id":12345678901234567890,"tags":["a","b","c","…1 more of 4"]}\n');
    const json = runBinary(['digest', '--json', file]);
    expect(json.status).toBe(0);
    expect(json.stdout).toContain('{"digest":{"id":12345678901234567890,');
    expect(JSON.parse(json.stdout)).toMatchObject({ contentLost: true, losslessNumbers: 1 });
  });

  it('applies COMPACTION_CONTINUATION_DIGEST_* caps', () => {
    const { stdout } = runBinary(['digest', '-'], {
      input: '[1,2,3]',
      env: { COMPACTION_CONTINUATION_DIGEST_ARRAY_SAMPLE: '1' },
    });
    expect(stdout).toBe('[1,"…2 more of 3"]\n');
  });

  it('fails with one line on input that is not JSON', () => {
    const { status, stdout, stderr } = runBinary(['digest'], { input: '{"a":' });
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^compaction digest: the input is not JSON/);
  });

  it('renders a planning section from a steps file, with the structural trimmer as floor', () => {
    const file = join(dir, 'steps.json');
    const log = Array.from({ length: 3000 }, (_, i) => `INFO request ${i} served`).join('\n');
    writeFileSync(
      file,
      JSON.stringify([
        { id: 'step-1', status: 'succeeded', result: JSON.parse(lokiResponse()) },
        { id: 'step-2', status: 'succeeded', result: log },
        {
          id: 'step-3',
          status: 'failed',
          error: { code: 'timeout', message: 'deadline exceeded' },
          inputs: { query: '{app="api"}' },
        },
        { id: 'step-4', status: 'rejected', error: 'unknown reference {{step-9.x}}' },
      ]),
    );
    const { status, stdout, stderr } = runBinary(['digest', '--steps', file]);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toContain('## step-1: succeeded, JSON digest\n{"status":"success"');
    expect(stdout).toContain('## step-2: succeeded, text preview');
    expect(stdout).toMatch(/\[(trimmed|severely reduced): /);
    expect(stdout).toContain('[FAILED: timeout: deadline exceeded]');
    expect(stdout).toContain('"inputs":{"query":"{app=\\"api\\"}"}');
    expect(stdout).toContain('[NOT DISPATCHED:');
    expect(stdout.endsWith('[showing 4 of 4 completed steps]\n')).toBe(true);

    const tight = runBinary(['digest', '--steps', file, '--budget', '100', '--json']);
    const section = JSON.parse(tight.stdout);
    expect(section.evictedStepIds).toEqual(['step-1']);
    expect(section.text).toContain('[showing 3 of 4 completed steps]');
  });

  it('explains a malformed steps file and bad usage', () => {
    const file = join(dir, 'bad-steps.json');
    writeFileSync(file, '[{"id":"a","status":"done"}]');
    const bad = runBinary(['digest', '--steps', file]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('needs "status"');
    expect(runBinary(['digest', '--budget', '10'], { input: '{}' }).status).toBe(2);
    expect(runBinary(['digest', '--steps', file, 'extra.json']).status).toBe(2);
  });
});
