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

  it('exits 2 on bad usage with a message on stderr and nothing on stdout', () => {
    const { status, stdout, stderr } = runBinary(['nope']);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain("unknown command 'nope'");
  });
});
