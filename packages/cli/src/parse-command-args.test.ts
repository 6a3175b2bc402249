import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from './parse-command-args.js';
import { UsageError } from './usage-error.js';

const options = {
  offset: { type: 'string' },
  budget: { type: 'string' },
  json: { type: 'boolean' },
} as const;

describe('parseCommandArgs', () => {
  it('reads a negative number after an option that takes a value as its value', () => {
    expect(parseCommandArgs(['REF', '--offset', '-2', '--json'], options)).toEqual({
      values: { offset: '-2', json: true },
      positionals: ['REF'],
    });
    expect(parseCommandArgs(['--budget', '-0.5', '--offset=-7'], options).values).toEqual({
      budget: '-0.5',
      offset: '-7',
    });
    // A value that happens to be a number is taken as before.
    expect(parseCommandArgs(['--offset', '3', '-'], options)).toEqual({
      values: { offset: '3' },
      positionals: ['-'],
    });
  });

  it('leaves everything else to util.parseArgs: flags, other dash values, `--`', () => {
    const usage = (args: string[]) => () => parseCommandArgs(args, options);
    expect(usage(['--offset', '-x'])).toThrow(UsageError);
    expect(usage(['--offset', '-x'])).toThrow(/argument is ambiguous/);
    expect(usage(['--offset', '--json'])).toThrow(/argument is ambiguous/);
    expect(usage(['--offset', '-1e3'])).toThrow(/argument is ambiguous/);
    // A flag takes no value, so a number after it is no value of it.
    expect(usage(['--json', '-2'])).toThrow("Unknown option '-2'");
    expect(usage(['--bogus', '-2'])).toThrow("Unknown option '--bogus'");
    expect(parseCommandArgs(['--json', '--', '--offset', '-2'], options)).toEqual({
      values: { json: true },
      positionals: ['--offset', '-2'],
    });
  });
});
