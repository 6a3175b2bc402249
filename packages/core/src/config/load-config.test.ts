import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { MIN_TRIM_BUDGET_BYTES } from '../min-trim-budget.js';
import { CONFIG_KNOBS, type KnobDefinition } from './config-knobs.js';
import { loadConfig } from './load-config.js';
import { formatDuration, parseDuration } from './parse-duration.js';

const load = (env: Record<string, string>, options = {}) => loadConfig({ env, options });

describe('the knob table', () => {
  it('names each environment variable once, all with the COMPACTION_ prefix', () => {
    const names = CONFIG_KNOBS.flatMap((knob) => (knob.env ? [knob.env] : []));
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^COMPACTION_[A-Z0-9_]+$/);
  });

  it('has the seed defaults', () => {
    const { config } = load({});
    expect(config.trim).toEqual({
      enabled: true,
      maxResultBytes: 65536,
      maxTotalBytes: 196608,
      maxMicroBytes: 65536,
      maxAgentInputBytes: 0,
      schemaMappingThreshold: 16384,
      preserveKeys: [],
    });
    expect(config.distill).toEqual({
      enabled: true,
      thresholdBytes: 16384,
      prefilterBytes: 131072,
      targetBytes: 4096,
      model: 'fast',
      cacheTtlMs: 300_000,
      deadlineMs: 45_000,
      contextTokens: 150_000,
      mapReduceThresholdBytes: 0,
      mapConcurrency: 8,
    });
    expect(config.continuation).toEqual({
      maxTotalBytes: 196608,
      nonJsonFloorBytes: 10000,
      maxEscalations: 8,
      digestArraySample: 3,
      digestScalarMax: 200,
      digestMaxKeys: 50,
    });
    expect(config.failedOperationView).toEqual({
      enabled: true,
      maxInputBytes: 4096,
      maxStepBytes: 16384,
      maxPromptBytes: 32768,
    });
    expect(config.llmDebug).toBe(false);
    expect(config.redisUrl).toBeUndefined();
  });

  it('reports every knob as coming from its default with an empty environment', () => {
    const { sources, warnings } = load({});
    expect(warnings).toEqual([]);
    for (const knob of CONFIG_KNOBS) expect(sources[knob.path]).toBe('default');
  });
});

describe('precedence: explicit option, then environment, then default', () => {
  it('takes the option over the variable and the variable over the default', () => {
    const env = {
      COMPACTION_RESULT_TRIM_MAX_BYTES: '32768',
      COMPACTION_RESULT_DISTILL_TARGET: '8192',
    };
    const { config, sources } = load(env, { trim: { maxResultBytes: 1000 } });
    expect(config.trim.maxResultBytes).toBe(1000);
    expect(sources['trim.maxResultBytes']).toBe('option');
    expect(config.distill.targetBytes).toBe(8192);
    expect(sources['distill.targetBytes']).toBe('env');
    expect(config.distill.thresholdBytes).toBe(16384);
    expect(sources['distill.thresholdBytes']).toBe('default');
  });

  it('does not share the default array between loads', () => {
    const first = load({}).config;
    first.trim.preserveKeys.push('id');
    expect(load({}).config.trim.preserveKeys).toEqual([]);
  });

  it('takes preserve keys only as an option', () => {
    const { config, sources } = load({}, { trim: { preserveKeys: ['id', 'error'] } });
    expect(config.trim.preserveKeys).toEqual(['id', 'error']);
    expect(sources['trim.preserveKeys']).toBe('option');
  });
});

describe('parsing environment values (seed 002 §8.1)', () => {
  it('reads byte budgets as integers and trims whitespace', () => {
    expect(load({ COMPACTION_RESULT_TRIM_MAX_BYTES: ' 16384 ' }).config.trim.maxResultBytes).toBe(
      16384,
    );
  });

  it('treats an empty value as unset, without a warning', () => {
    const { config, warnings, sources } = load({ COMPACTION_RESULT_TRIM_MAX_BYTES: '  ' });
    expect(config.trim.maxResultBytes).toBe(65536);
    expect(sources['trim.maxResultBytes']).toBe('default');
    expect(warnings).toEqual([]);
  });

  it.each(['0', '-5', '-1'])(
    'ignores the non-positive budget %s and keeps the default',
    (value) => {
      const { config, warnings } = load({ COMPACTION_RESULT_TRIM_MAX_BYTES: value });
      expect(config.trim.maxResultBytes).toBe(65536);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.env).toBe('COMPACTION_RESULT_TRIM_MAX_BYTES');
    },
  );

  it.each(['16KB', '1.5', 'abc', '0x10', '1e4'])(
    'reports the unparsable budget %s with the variable name and keeps the default',
    (value) => {
      const { config, warnings } = load({ COMPACTION_RESULT_DISTILL_THRESHOLD: value });
      expect(config.distill.thresholdBytes).toBe(16384);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.message).toContain('COMPACTION_RESULT_DISTILL_THRESHOLD');
      expect(warnings[0]!.message).toContain(value);
    },
  );

  it('accepts 0 for exactly the four zero-accepting knobs', () => {
    const zero = {
      COMPACTION_RESULT_TRIM_MAX_AGENT_INPUT_BYTES: '0',
      COMPACTION_CONTINUATION_MAX_ESCALATIONS: '0',
      COMPACTION_RESULT_TRIM_SCHEMA_MAPPING_THRESHOLD: '0',
      COMPACTION_RESULT_DISTILL_MAPREDUCE_THRESHOLD: '0',
    };
    const { config, sources, warnings } = load(zero);
    expect(config.continuation.maxEscalations).toBe(0);
    expect(config.trim.schemaMappingThreshold).toBe(0);
    expect(config.distill.mapReduceThresholdBytes).toBe(0);
    expect(config.trim.maxAgentInputBytes).toBe(0);
    expect(sources['continuation.maxEscalations']).toBe('env');
    expect(sources['trim.schemaMappingThreshold']).toBe('env');
    expect(sources['distill.mapReduceThresholdBytes']).toBe('env');
    expect(warnings).toEqual([]);
    const zeroAccepting = CONFIG_KNOBS.filter(
      (knob) => knob.kind === 'bytes0' || knob.kind === 'count0',
    );
    expect(zeroAccepting.map((knob) => knob.env).sort()).toEqual(Object.keys(zero).sort());
  });

  it('still ignores a negative value on a zero-accepting knob', () => {
    const { config, warnings } = load({ COMPACTION_CONTINUATION_MAX_ESCALATIONS: '-1' });
    expect(config.continuation.maxEscalations).toBe(8);
    expect(warnings).toHaveLength(1);
  });

  it.each([
    ['true', true],
    ['TRUE', true],
    ['True', true],
    ['false', false],
    ['FALSE', false],
  ])('reads the boolean %s as %s without a warning', (value, expected) => {
    const { config, warnings } = load({ COMPACTION_RESULT_TRIM_ENABLED: value });
    expect(config.trim.enabled).toBe(expected);
    expect(warnings).toEqual([]);
  });

  it.each(['1', 'yes', 'on', 'enabled'])(
    'reads %s as false (only the literal true enables) and says so',
    (value) => {
      const { config, warnings, sources } = load({ COMPACTION_RESULT_DISTILL_ENABLED: value });
      expect(config.distill.enabled).toBe(false);
      expect(sources['distill.enabled']).toBe('env');
      expect(warnings[0]!.message).toContain('COMPACTION_RESULT_DISTILL_ENABLED');
    },
  );

  it('reads Go-style durations', () => {
    const { config } = load({
      COMPACTION_RESULT_DISTILL_DEADLINE: '30s',
      COMPACTION_RESULT_DISTILL_CACHE_TTL: '1h30m',
    });
    expect(config.distill.deadlineMs).toBe(30_000);
    expect(config.distill.cacheTtlMs).toBe(5_400_000);
  });

  it('rounds a duration up to whole milliseconds, never down to none', () => {
    // A deadline of 1.5 ms used to reach createCompaction as 1.5 and fail its integer check.
    for (const [text, ms] of [
      ['1.5ms', 2],
      ['100us', 1],
      ['1ns', 1],
      ['1.0005s', 1001],
    ] as const) {
      const { config, warnings, sources } = load({ COMPACTION_RESULT_DISTILL_DEADLINE: text });
      expect(config.distill.deadlineMs, text).toBe(ms);
      expect(sources['distill.deadlineMs']).toBe('env');
      expect(warnings).toEqual([]);
    }
  });

  it('raises an artifact inline limit below 1000 characters, with a warning', () => {
    const { config, warnings } = load({ COMPACTION_ARTIFACT_INLINE_LIMIT: '500' });
    expect(config.artifacts.inlineLimitChars).toBe(1000);
    expect(warnings.map((w) => w.path)).toEqual(['artifacts.inlineLimitChars']);
    // The limit counts characters, and its floor is the room an excerpt and its marker need.
    const [warning] = warnings;
    expect(warning!.message).toContain('1000 characters');
    expect(warning!.message).toContain('excerpt');
    expect(warning!.message).not.toMatch(/bytes|structural trim/);
  });

  it('names bytes and the structural trimmer when a trim budget is below its minimum', () => {
    const { warnings } = load({ COMPACTION_RESULT_TRIM_MAX_BYTES: '10' });
    expect(warnings[0]!.message).toContain(`${MIN_TRIM_BUDGET_BYTES} bytes`);
    expect(warnings[0]!.message).toContain('structural trim');
  });

  it.each(['0', '0s', '-5s'])('ignores the duration %s from the environment', (value) => {
    const { config, warnings } = load({ COMPACTION_RESULT_DISTILL_DEADLINE: value });
    expect(config.distill.deadlineMs).toBe(45_000);
    expect(warnings).toHaveLength(1);
  });

  it.each(['45', 'soon', '5 m', '5min'])('reports the unparsable duration %s', (value) => {
    const { config, warnings } = load({ COMPACTION_RESULT_DISTILL_CACHE_TTL: value });
    expect(config.distill.cacheTtlMs).toBe(300_000);
    expect(warnings[0]!.message).toContain('COMPACTION_RESULT_DISTILL_CACHE_TTL');
  });

  it('accepts a zero deadline and cache TTL programmatically (disabled)', () => {
    const { config } = load({}, { distill: { deadlineMs: 0, cacheTtlMs: 0 } });
    expect(config.distill.deadlineMs).toBe(0);
    expect(config.distill.cacheTtlMs).toBe(0);
  });

  it('reads strings trimmed, and an empty string as unset', () => {
    expect(load({ COMPACTION_RESULT_DISTILL_MODEL: ' smart ' }).config.distill.model).toBe('smart');
    expect(load({ COMPACTION_RESULT_DISTILL_MODEL: '' }).config.distill.model).toBe('fast');
  });

  it('warns that a map-reduce byte threshold below the pre-filter budget is ignored', () => {
    const { config, warnings } = load({ COMPACTION_RESULT_DISTILL_MAPREDUCE_THRESHOLD: '65536' });
    expect(config.distill.mapReduceThresholdBytes).toBe(65536);
    expect(warnings[0]!.message).toMatch(/below the pre-filter budget 131072 and is ignored/);
    expect(load({ COMPACTION_RESULT_DISTILL_MAPREDUCE_THRESHOLD: '262144' }).warnings).toEqual([]);
  });
});

describe('explicit options are validated', () => {
  it.each([
    [{ trim: { maxResultBytes: 0 } }, 'trim.maxResultBytes'],
    [{ trim: { maxResultBytes: 1.5 } }, 'trim.maxResultBytes'],
    [{ distill: { enabled: 'true' } }, 'distill.enabled'],
    [{ distill: { deadlineMs: -1 } }, 'distill.deadlineMs'],
    [{ continuation: { maxEscalations: -1 } }, 'continuation.maxEscalations'],
    [{ trim: { preserveKeys: 'id' } }, 'trim.preserveKeys'],
  ])('throws a ConfigError naming the option for %j', (options, path) => {
    try {
      loadConfig({ env: {}, options: options as never });
      expect.unreachable('should have thrown');
    } catch (error) {
      expect(ConfigError.isInstance(error)).toBe(true);
      expect((error as ConfigError).option).toBe(path);
      expect((error as Error).message).toContain(path);
    }
  });

  it('ignores inherited properties of the options object', () => {
    const options = Object.create({ trim: { maxResultBytes: 5 } });
    expect(loadConfig({ env: {}, options }).config.trim.maxResultBytes).toBe(65536);
  });
});

describe('parseDuration / formatDuration', () => {
  it.each([
    ['45s', 45_000],
    ['5m', 300_000],
    ['1h30m', 5_400_000],
    ['1.5s', 1500],
    ['250ms', 250],
    ['1500us', 1.5],
    ['1500\u00b5s', 1.5],
    ['1500\u03bcs', 1.5],
    ['2000000ns', 2],
    ['0', 0],
  ])('parses %s', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', 's', '5', '5x', '1h 30m', 'm5'])('rejects %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('formats what it parses', () => {
    for (const ms of [45_000, 300_000, 5_400_000, 250, 0]) {
      expect(parseDuration(formatDuration(ms))).toBe(ms);
    }
  });
});

describe('minimums: a trim budget below what the trimmer can cut to is raised, with a warning', () => {
  it('raises an agent-input cap of 200 from the environment to the minimum and names the knob', () => {
    const { config, warnings } = load({ COMPACTION_RESULT_TRIM_MAX_AGENT_INPUT_BYTES: '200' });
    expect(config.trim.maxAgentInputBytes).toBe(MIN_TRIM_BUDGET_BYTES);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!).toMatchObject({ path: 'trim.maxAgentInputBytes', source: 'env' });
    expect(warnings[0]!.message).toContain('COMPACTION_RESULT_TRIM_MAX_AGENT_INPUT_BYTES="200"');
    expect(warnings[0]!.message).toContain(`using ${MIN_TRIM_BUDGET_BYTES}`);
  });

  it('raises the same cap given as an option, and accepts 0 (no cap) as an option', () => {
    const raised = load({}, { trim: { maxAgentInputBytes: 200 } });
    expect(raised.config.trim.maxAgentInputBytes).toBe(MIN_TRIM_BUDGET_BYTES);
    expect(raised.warnings[0]!).toMatchObject({
      path: 'trim.maxAgentInputBytes',
      source: 'option',
    });
    expect(raised.warnings[0]!.message).toContain('trim.maxAgentInputBytes: 200');
    const zero = load({}, { trim: { maxAgentInputBytes: 0 } });
    expect(zero.config.trim.maxAgentInputBytes).toBe(0);
    expect(zero.warnings).toEqual([]);
  });

  it('gives every trim budget the minimum', () => {
    const minimums = CONFIG_KNOBS.filter((knob) => knob.minimum !== undefined).map((k) => k.path);
    expect(minimums.sort()).toEqual(
      [
        'artifacts.inlineLimitChars',
        'artifacts.viewMaxBytes',
        'continuation.nonJsonFloorBytes',
        'distill.prefilterBytes',
        'trim.maxAgentInputBytes',
        'trim.maxMicroBytes',
        'trim.maxResultBytes',
        'trim.maxTotalBytes',
      ].sort(),
    );
  });
});

// The value a valid environment text stands for, before any minimum is applied.
function parsedForm(knob: KnobDefinition, raw: string): unknown {
  switch (knob.kind) {
    case 'boolean':
      return raw.trim().toLowerCase() === 'true';
    case 'duration':
      return parseDuration(raw);
    case 'string':
    case 'secret':
      return raw.trim();
    default:
      return Number(raw.trim());
  }
}

const SAMPLES: Readonly<Record<KnobDefinition['kind'], string[]>> = {
  bytes: ['1', '200', '256', '4096', '196608', '0', '-1'],
  bytes0: ['0', '1', '200', '300', '131072', '-1'],
  count: ['1', '3', '150000', '0', '-2'],
  count0: ['0', '1', '8', '-1'],
  boolean: ['true', 'TRUE', 'false', 'False'],
  duration: ['45s', '1500ms', '2m', '1h30m', '0', '0s'],
  string: ['fast', ' smart '],
  secret: ['s3cr3t', ' spaced '],
  list: [],
};

describe('every knob: the programmatic form agrees with the environment form', () => {
  const knobs = CONFIG_KNOBS.filter((knob) => knob.env !== undefined);
  it.each(knobs.map((knob) => [knob.path, knob] as const))('%s', (_path, knob) => {
    const at = (config: object) =>
      knob.path.split('.').reduce<unknown>((node, key) => (node as never)[key], config);
    for (const raw of SAMPLES[knob.kind]) {
      const fromEnv = loadConfig({ env: { [knob.env!]: raw } });
      const value = parsedForm(knob, raw);
      const options: Record<string, unknown> = {};
      const segments = knob.path.split('.');
      let node = options;
      for (const segment of segments.slice(0, -1)) node = node[segment] = {} as never;
      node[segments[segments.length - 1]!] = value;
      const fromOption = () => loadConfig({ env: {}, options: options as never });
      if (fromEnv.sources[knob.path] === 'env') {
        // Accepted from the environment: the same value as an option resolves the same way,
        // with the same warnings about it (a raised minimum, an ignored threshold).
        const resolved = fromOption();
        expect(at(resolved.config), `${knob.path} = ${raw}`).toEqual(at(fromEnv.config));
        expect(resolved.warnings.map((w) => w.path)).toEqual(fromEnv.warnings.map((w) => w.path));
      } else if (knob.kind === 'duration' && value === 0) {
        // The seed's rule: 0 disables the deadline or the TTL only when set programmatically.
        expect(at(fromOption().config)).toBe(0);
      } else {
        // Ignored from the environment (non-positive): refused as an option, with the knob named.
        expect(fromOption, `${knob.path} = ${raw}`).toThrow(ConfigError);
      }
    }
  });
});

describe('unknown COMPACTION_ variables', () => {
  it('warns once about a misspelled variable, naming the nearest known one', () => {
    const { config, warnings } = load({
      COMPACTION_RESULT_TRIM_MAX_BYTE: '1000',
      COMPACTION_ARTIFACT_INLINE_LIMT: '9000',
    });
    expect(config.trim.maxResultBytes).toBe(65536);
    expect(warnings).toHaveLength(2);
    const [first, second] = warnings;
    expect(first).toMatchObject({
      env: 'COMPACTION_RESULT_TRIM_MAX_BYTE',
      source: 'env',
      value: '1000',
    });
    expect(first!.message).toContain('COMPACTION_RESULT_TRIM_MAX_BYTE is not a known variable');
    expect(first!.message).toContain('did you mean COMPACTION_RESULT_TRIM_MAX_BYTES?');
    expect(second!.message).toContain('did you mean COMPACTION_ARTIFACT_INLINE_LIMIT?');
  });

  it('names no suggestion when nothing is close, and ignores other prefixes', () => {
    const { warnings } = load({
      COMPACTION_SOMETHING_ELSE_ENTIRELY: '1',
      OTHER_COMPACTION_RESULT_TRIM_MAX_BYTE: '1',
      compaction_result_trim_max_bytes: '1',
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toBe(
      'COMPACTION_SOMETHING_ELSE_ENTIRELY is not a known variable and is ignored (`compaction config` lists them all)',
    );
  });

  it('does not warn about known variables, set or empty', () => {
    const env: Record<string, string> = {};
    for (const knob of CONFIG_KNOBS) if (knob.env) env[knob.env] = '';
    expect(load(env).warnings).toEqual([]);
  });
});
