import { ConfigError } from '../errors.js';
import type { CompactionConfig, CompactionConfigOptions } from './compaction-config.js';
import { CONFIG_KNOBS, type KnobDefinition } from './config-knobs.js';
import { nearestName } from './nearest-name.js';
import { parseDuration } from './parse-duration.js';

/** Where a resolved value came from. */
export type ConfigSource = 'option' | 'env' | 'default';

/** A value that was read but not used as given, with the knob named so it can be fixed. */
export interface ConfigWarning {
  /** The config path, such as `trim.maxResultBytes`; empty for a variable no knob reads. */
  path: string;
  /** The knob's environment variable (which held the value when `source` is `env`). */
  env: string | undefined;
  /** Where the value came from. */
  source: Exclude<ConfigSource, 'default'>;
  /** The value as given (the raw text of an environment value). */
  value: string;
  /** One line: what was wrong and what was used instead. */
  message: string;
}

/** The resolved config with the provenance of each knob. */
export interface LoadedConfig {
  config: CompactionConfig;
  /** Source of each knob, by config path. */
  sources: Record<string, ConfigSource>;
  /** Environment values that were ignored or read unexpectedly. */
  warnings: ConfigWarning[];
}

/** Inputs of `loadConfig`. */
export interface LoadConfigInput {
  /** Explicit options; each given value wins over the environment and the default. */
  options?: CompactionConfigOptions;
  /** The environment to read. Default `process.env`, read at call time (none where the runtime has no `process`). */
  env?: Readonly<Record<string, string | undefined>>;
}

type EnvRead = { value: unknown } | { warning: string } | { ignored: string } | undefined;

const INTEGER = /^[+-]?\d+$/;

function readEnvValue(definition: KnobDefinition, raw: string): EnvRead {
  const text = raw.trim();
  if (text === '') return undefined;
  switch (definition.kind) {
    case 'bytes':
    case 'count':
    case 'bytes0':
    case 'count0': {
      if (!INTEGER.test(text)) {
        return {
          warning: `is not an integer${definition.kind.startsWith('bytes') ? ' number of bytes' : ''}`,
        };
      }
      const value = Number(text);
      if (!Number.isSafeInteger(value)) return { warning: 'is too large' };
      const zeroAccepted = definition.kind.endsWith('0');
      if (value < 0 || (value === 0 && !zeroAccepted)) {
        return { ignored: `is ${value <= 0 && !zeroAccepted ? 'not positive' : 'negative'}` };
      }
      return { value };
    }
    case 'boolean': {
      const lower = text.toLowerCase();
      if (lower === 'true') return { value: true };
      if (lower === 'false') return { value: false };
      return {
        value: false,
        warning: 'is read as false: only the literal "true" enables',
      } as EnvRead;
    }
    case 'duration': {
      const ms = parseDuration(text);
      if (ms === undefined) return { warning: 'is not a duration such as 45s or 5m' };
      if (ms <= 0)
        return { ignored: 'is zero or negative (0 disables only when set programmatically)' };
      // Deadlines and timers take whole milliseconds: `1.5ms` is 2, `1ns` is 1, never 0.
      return { value: Math.ceil(ms) };
    }
    case 'string':
    case 'secret':
      return { value: text };
    case 'list':
      return undefined;
  }
}

const PREFIX = 'COMPACTION_';
const KNOWN_SUFFIXES = CONFIG_KNOBS.flatMap((knob) =>
  knob.env ? [knob.env.slice(PREFIX.length)] : [],
);

/**
 * A `COMPACTION_*` variable no knob reads is most likely a typo that would otherwise leave the
 * default in force without a word: one warning each, naming the closest known variable.
 */
function unknownVariables(env: NonNullable<LoadConfigInput['env']>): ConfigWarning[] {
  const warnings: ConfigWarning[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(PREFIX) || value === undefined) continue;
    const suffix = name.slice(PREFIX.length);
    if (KNOWN_SUFFIXES.includes(suffix)) continue;
    const nearest = nearestName(suffix, KNOWN_SUFFIXES);
    warnings.push({
      path: '',
      env: name,
      source: 'env',
      value,
      message: `${name} is not a known variable and is ignored${nearest ? `; did you mean ${PREFIX}${nearest}?` : ' (`compaction config` lists them all)'}`,
    });
  }
  return warnings;
}

function describeDefault(definition: KnobDefinition): string {
  if (definition.kind === 'secret') return 'unset';
  const value = definition.defaultValue;
  return value === undefined ? 'unset' : JSON.stringify(value);
}

function validateOption(definition: KnobDefinition, value: unknown): unknown {
  const fail = (reason: string): never => {
    throw new ConfigError({ option: definition.path, value, reason });
  };
  switch (definition.kind) {
    case 'bytes':
    case 'count':
      if (!Number.isSafeInteger(value) || (value as number) <= 0)
        fail('must be a positive integer');
      return value;
    case 'bytes0':
    case 'count0':
      if (!Number.isSafeInteger(value) || (value as number) < 0)
        fail('must be a non-negative integer');
      return value;
    case 'duration':
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
        fail('must be a non-negative number of milliseconds (0 disables)');
      }
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') fail('must be a boolean');
      return value;
    case 'string':
    case 'secret':
      if (typeof value !== 'string' || value.trim() === '') fail('must be a non-empty string');
      return (value as string).trim();
    case 'list':
      if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
        fail('must be an array of strings');
      }
      return [...(value as string[])];
  }
}

function getPath(source: object | undefined, path: string): unknown {
  let current: unknown = source;
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = Object.hasOwn(current, segment)
      ? (current as Record<string, unknown>)[segment]
      : undefined;
  }
  return current;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const segments = path.split('.');
  let current = target;
  for (const segment of segments.slice(0, -1)) {
    current[segment] ??= {};
    current = current[segment] as Record<string, unknown>;
  }
  current[segments[segments.length - 1]!] = value;
}

/**
 * Resolves every knob with the precedence explicit option → `COMPACTION_*` variable → default.
 * Environment values are parsed as seed 002 §8.1 says; a value that cannot be used is ignored
 * and reported in `warnings` with its variable name. An invalid explicit option throws a
 * `ConfigError`, since the caller wrote it and must fix it.
 */
export function loadConfig(input: LoadConfigInput = {}): LoadedConfig {
  // `process` is Node's (and Bun's, and Deno's); browsers and edge runtimes have no environment.
  const env =
    input.env ?? (globalThis as { process?: { env: LoadConfigInput['env'] } }).process?.env ?? {};
  const config: Record<string, unknown> = {};
  const sources: Record<string, ConfigSource> = {};
  const warnings: ConfigWarning[] = [];

  // A numeric value below the knob's minimum is raised to it (0 stays where it disables).
  const atLeastMinimum = (
    definition: KnobDefinition,
    value: unknown,
    source: 'option' | 'env',
    raw: string,
  ): unknown => {
    const { minimum } = definition;
    if (minimum === undefined || typeof value !== 'number' || value === 0 || value >= minimum) {
      return value;
    }
    const name =
      source === 'env'
        ? `${definition.env}=${JSON.stringify(raw)}`
        : `${definition.path}: ${value}`;
    warnings.push({
      path: definition.path,
      env: definition.env,
      source,
      value: raw,
      message: `${name} is below the minimum of ${minimum} ${definition.minimumReason}; using ${minimum}${definition.env && source === 'option' ? ` (${definition.env})` : ''}`,
    });
    return minimum;
  };

  for (const definition of CONFIG_KNOBS) {
    const option = getPath(input.options, definition.path);
    if (option !== undefined) {
      const value = validateOption(definition, option);
      setPath(config, definition.path, atLeastMinimum(definition, value, 'option', String(option)));
      sources[definition.path] = 'option';
      continue;
    }
    const raw = definition.env ? env[definition.env] : undefined;
    const read = definition.env && raw !== undefined ? readEnvValue(definition, raw) : undefined;
    if (read && 'value' in read) {
      setPath(config, definition.path, atLeastMinimum(definition, read.value, 'env', raw!));
      sources[definition.path] = 'env';
      if ('warning' in read) {
        warnings.push({
          path: definition.path,
          env: definition.env!,
          source: 'env',
          value: raw!,
          message: `${definition.env}=${JSON.stringify(raw)} ${read.warning}`,
        });
      }
      continue;
    }
    if (read) {
      const reason = 'warning' in read ? read.warning : read.ignored;
      warnings.push({
        path: definition.path,
        env: definition.env!,
        source: 'env',
        value: raw!,
        message: `${definition.env}=${JSON.stringify(raw)} ${reason}; using the default (${describeDefault(definition)})`,
      });
    }
    const fallback = definition.defaultValue;
    setPath(config, definition.path, Array.isArray(fallback) ? [...fallback] : fallback);
    sources[definition.path] = 'default';
  }

  warnings.push(...unknownVariables(env));

  const resolved = config as unknown as CompactionConfig;
  const { mapReduceThresholdBytes, prefilterBytes } = resolved.distill;
  if (mapReduceThresholdBytes > 0 && mapReduceThresholdBytes < prefilterBytes) {
    warnings.push({
      path: 'distill.mapReduceThresholdBytes',
      env: 'COMPACTION_RESULT_DISTILL_MAPREDUCE_THRESHOLD',
      source: sources['distill.mapReduceThresholdBytes'] === 'env' ? 'env' : 'option',
      value: String(mapReduceThresholdBytes),
      message: `map-reduce byte threshold ${mapReduceThresholdBytes} is below the pre-filter budget ${prefilterBytes} and is ignored (such a result is a single chunk); COMPACTION_RESULT_DISTILL_MAPREDUCE_THRESHOLD`,
    });
  }
  return { config: resolved, sources, warnings };
}

/** The resolved config alone; see `loadConfig` for provenance and warnings. */
export function resolveConfig(input: LoadConfigInput = {}): CompactionConfig {
  return loadConfig(input).config;
}
