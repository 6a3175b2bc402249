import {
  type JsonValue,
  LosslessNumber,
  parseJsonLossless,
  type StepRecord,
  stringifyJsonLossless,
} from '@compaction/core';
import { StepReferenceError } from './step-reference-error.js';

/** One step of a path: an object key or an array index. */
export type PathSegment = string | number;

/** A reference bound to the full stored value. */
export interface ResolvedReference {
  /** The step it named. */
  stepId: string;
  /** The path inside the step's result. */
  path: PathSegment[];
  /** The addressed value; big numbers are `LosslessNumber`s holding their exact text. */
  value: JsonValue;
  /** The addressed value as minified JSON, numbers byte for byte as in the result. */
  json: string;
}

/** A template with its references bound. */
export interface BoundTemplate {
  /**
   * A template that is exactly one reference binds to that value, whatever its type; any other
   * template binds to a string in which string values are inserted as they are and other
   * values as their JSON text.
   */
  value: JsonValue;
  /** `value` as JSON. */
  json: string;
}

/** Binds `{{<step-id>.<path>}}` references to the full results of completed steps. */
export interface StepResolver {
  /**
   * Resolves one reference, with or without the surrounding braces: `step-3`,
   * `step-3.data.result`, `{{step-3.data.result[0].stream}}`, `step-3.items.2`,
   * `step-3["key.with.dots"]`. Throws a `StepReferenceError` naming what is missing.
   */
  resolve(reference: string): ResolvedReference;
  /** Replaces every `{{…}}` reference in `template`. Throws a `StepReferenceError` on the first that fails. */
  bind(template: string): BoundTemplate;
}

const SIMPLE_KEY = /^[A-Za-z_$][\w$-]*$/;

/** A path as a reader writes it: `data.result[0]["a.b"]`. */
export function formatPath(path: readonly PathSegment[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (SIMPLE_KEY.test(segment)) text += `${text === '' ? '' : '.'}${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

function parsePath(text: string, reference: string, stepId: string): PathSegment[] {
  const path: PathSegment[] = [];
  let index = 0;
  const fail = (why: string): never => {
    throw new StepReferenceError({
      code: 'step_reference_invalid',
      message: `Invalid reference ${JSON.stringify(reference)}: ${why} at offset ${index} of the path`,
      reference,
      stepId,
    });
  };
  while (index < text.length) {
    const char = text[index];
    if (char === '.') {
      let end = index + 1;
      while (end < text.length && text[end] !== '.' && text[end] !== '[') end++;
      if (end === index + 1) fail('empty key');
      path.push(text.slice(index + 1, end));
      index = end;
    } else if (char === '[') {
      if (text[index + 1] === '"') {
        const match = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(index + 1));
        if (!match || text[index + 1 + match[0].length] !== ']') fail('unterminated quoted key');
        path.push(JSON.parse(match![0]) as string);
        index += match![0].length + 2;
      } else {
        const match = /^(\d+)\]/.exec(text.slice(index + 1));
        if (!match) fail('expected an array index or a quoted key');
        path.push(Number(match![1]));
        index += match![0].length + 1;
      }
    } else {
      fail(`unexpected ${JSON.stringify(char)}`);
    }
  }
  return path;
}

function describe(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (LosslessNumber.isInstance(value)) return 'a number';
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    const shown = keys.slice(0, 10).map((key) => JSON.stringify(key));
    return `an object with keys ${shown.join(', ')}${keys.length > 10 ? `, … (${keys.length} in all)` : keys.length === 0 ? '(none)' : ''}`;
  }
  return `a ${typeof value}`;
}

const TEMPLATE = /\{\{([^{}]*)\}\}/g;

/**
 * Creates a resolver over `steps`: plans address a step's full stored result (never its
 * digest) by id and path, and get the value with every number exactly as the tool wrote it.
 * Results are parsed on first use and kept for later references.
 */
export function createStepResolver(steps: Iterable<StepRecord>): StepResolver {
  const byId = new Map<string, StepRecord>();
  for (const step of steps) byId.set(step.id, step);
  const ids = [...byId.keys()].sort((a, b) => b.length - a.length);
  const parsed = new Map<string, { ok: true; value: JsonValue } | { ok: false }>();

  const parsedResult = (step: StepRecord, result: string) => {
    let entry = parsed.get(step.id);
    if (!entry) {
      const outcome = parseJsonLossless(result);
      entry = outcome.ok ? { ok: true, value: outcome.value } : { ok: false };
      parsed.set(step.id, entry);
    }
    return entry;
  };

  const resolve = (written: string): ResolvedReference => {
    let reference = written.trim();
    if (reference.startsWith('{{') && reference.endsWith('}}')) {
      reference = reference.slice(2, -2).trim();
    }
    const stepId = ids.find(
      (id) =>
        reference.startsWith(id) &&
        (reference.length === id.length ||
          reference[id.length] === '.' ||
          reference[id.length] === '['),
    );
    if (stepId === undefined) {
      const known = [...byId.keys()].slice(0, 10).join(', ');
      throw new StepReferenceError({
        code: 'step_not_found',
        message: `Reference ${JSON.stringify(written)} names no completed step (known: ${known || 'none'}${byId.size > 10 ? ', …' : ''})`,
        reference: written,
      });
    }
    const step = byId.get(stepId)!;
    const path = parsePath(reference.slice(stepId.length), written, stepId);
    if (step.status !== 'succeeded' || step.result === undefined) {
      throw new StepReferenceError({
        code: 'step_not_succeeded',
        message: `Reference ${JSON.stringify(written)} names step ${stepId}, which ${step.status === 'succeeded' ? 'has no result' : `${step.status} and has no result`}`,
        reference: written,
        stepId,
      });
    }
    const entry = parsedResult(step, step.result);
    if (!entry.ok) {
      if (path.length === 0) {
        return { stepId, path, value: step.result, json: JSON.stringify(step.result) };
      }
      throw new StepReferenceError({
        code: 'step_result_not_json',
        message: `Reference ${JSON.stringify(written)} has a path, but the result of ${stepId} is not JSON`,
        reference: written,
        stepId,
      });
    }
    let value = entry.value;
    for (let i = 0; i < path.length; i++) {
      const segment = path[i]!;
      let next: JsonValue | undefined;
      if (Array.isArray(value)) {
        const index =
          typeof segment === 'number' ? segment : /^\d+$/.test(segment) ? Number(segment) : -1;
        next = index >= 0 && index < value.length ? value[index] : undefined;
      } else if (
        typeof value === 'object' &&
        value !== null &&
        !LosslessNumber.isInstance(value) &&
        Object.hasOwn(value, String(segment))
      ) {
        next = value[String(segment)];
      }
      if (next === undefined) {
        const resolvedPath = formatPath(path.slice(0, i));
        throw new StepReferenceError({
          code: 'step_path_not_found',
          message: `Reference ${JSON.stringify(written)}: ${stepId}${resolvedPath ? ` at ${resolvedPath}` : ''} is ${describe(value)}, with no ${typeof segment === 'number' ? `index ${segment}` : `key ${JSON.stringify(segment)}`}`,
          reference: written,
          stepId,
          resolvedPath,
        });
      }
      value = next;
    }
    return { stepId, path, value, json: stringifyJsonLossless(value) };
  };

  return {
    resolve,
    bind(template) {
      const whole = /^\s*\{\{([^{}]*)\}\}\s*$/.exec(template);
      if (whole) {
        const { value, json } = resolve(whole[1]!);
        return { value, json };
      }
      const text = template.replace(TEMPLATE, (_match, inner: string) => {
        const { value, json } = resolve(inner);
        return typeof value === 'string' ? value : json;
      });
      return { value: text, json: JSON.stringify(text) };
    },
  };
}
