import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { createMemoryIo } from './test-support/memory-io.js';

describe('runCli', () => {
  it('prints the command list for --help and no arguments, exit 0', async () => {
    for (const argv of [[], ['--help'], ['-h'], ['help']]) {
      const { io, stdout } = createMemoryIo();
      expect(await runCli(argv, io)).toBe(0);
      expect(stdout()).toContain('Usage: compaction <command>');
      expect(stdout()).toContain('config');
    }
  });

  it('prints a command help for `help config` and `config --help`', async () => {
    for (const argv of [
      ['help', 'config'],
      ['config', '--help'],
    ]) {
      const { io, stdout } = createMemoryIo();
      expect(await runCli(argv, io)).toBe(0);
      expect(stdout()).toContain('Usage: compaction config');
      expect(stdout()).toContain('Examples:');
    }
  });

  it('prints the package version for --version, -v and -V, exit 0', async () => {
    const { version } = JSON.parse(
      readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    for (const flag of ['--version', '-v', '-V']) {
      const { io, stdout } = createMemoryIo();
      expect(await runCli([flag], io)).toBe(0);
      expect(stdout()).toBe(`${version}\n`);
    }
  });

  it('exits 2 with the list on an unknown command', async () => {
    const { io, stdout, stderr } = createMemoryIo();
    expect(await runCli(['frobnicate'], io)).toBe(2);
    expect(stdout()).toBe('');
    expect(stderr()).toContain("unknown command 'frobnicate'");
  });

  it('exits 2 on an unknown flag, naming it', async () => {
    const { io, stderr } = createMemoryIo();
    expect(await runCli(['config', '--bogus'], io)).toBe(2);
    expect(stderr()).toContain('--bogus');
  });
});

describe('compaction config', () => {
  it('shows every knob with its source, reading only the given environment', async () => {
    const { io, stdout, stderr } = createMemoryIo({
      env: { COMPACTION_RESULT_TRIM_MAX_BYTES: '32768', COMPACTION_RESULT_DISTILL_ENABLED: 'yes' },
    });
    expect(await runCli(['config', '--json'], io)).toBe(0);
    expect(stderr()).toBe('');
    const report = JSON.parse(stdout());
    const knob = (path: string) => report.knobs.find((k: { path: string }) => k.path === path);
    expect(knob('trim.maxResultBytes')).toMatchObject({
      value: 32768,
      source: 'env',
      default: 65536,
    });
    expect(knob('distill.enabled')).toMatchObject({ value: false, source: 'env' });
    expect(knob('distill.deadlineMs')).toMatchObject({ value: 45000, source: 'default' });
    expect(report.warnings[0].message).toContain('COMPACTION_RESULT_DISTILL_ENABLED');
  });

  it('prints a table and the warnings on stderr in text mode', async () => {
    const { io, stdout, stderr } = createMemoryIo({
      env: { COMPACTION_RESULT_DISTILL_DEADLINE: 'soon' },
    });
    expect(await runCli(['config'], io)).toBe(0);
    expect(stdout().split('\n')[0]).toMatch(/^VARIABLE\s+VALUE\s+SOURCE\s+WHAT IT CONTROLS$/);
    expect(stdout()).toMatch(/COMPACTION_RESULT_DISTILL_DEADLINE\s+45s\s+default/);
    expect(stderr()).toContain('warning: COMPACTION_RESULT_DISTILL_DEADLINE="soon"');
  });

  it('warns once about a misspelled variable, naming the one it was meant to be', async () => {
    const { io, stdout, stderr } = createMemoryIo({
      env: { COMPACTION_RESULT_TRIM_MAX_BYTE: '32768' },
    });
    expect(await runCli(['config'], io)).toBe(0);
    expect(stdout()).toMatch(/COMPACTION_RESULT_TRIM_MAX_BYTES\s+65536\s+default/);
    expect(stderr()).toBe(
      'warning: COMPACTION_RESULT_TRIM_MAX_BYTE is not a known variable and is ignored; did you mean COMPACTION_RESULT_TRIM_MAX_BYTES?\n',
    );
  });
});
