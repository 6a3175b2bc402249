import { LosslessNumber } from './lossless-number.js';
import { suspiciousNumberSpans } from './suspicious-number-spans.js';

/** A parsed JSON value whose numbers keep their exact source text where it matters. */
export type JsonValue = null | boolean | number | string | LosslessNumber | JsonArray | JsonObject;
/** A JSON array. */
export type JsonArray = JsonValue[];
/** A JSON object. Keys such as `__proto__` are own data properties, never prototype changes. */
export type JsonObject = { [key: string]: JsonValue };

/** The outcome of `parseJsonLossless`. */
export type LosslessParseResult =
  | { ok: true; value: JsonValue; losslessNumbers: number }
  | { ok: false; error: SyntaxError };

// A per-process nonce keeps sentinels apart from real strings: a string can only collide by
// containing this exact random token.
const NONCE = `${Math.random().toString(36).slice(2, 10)}${Date.now().toString(36)}`;
const SENTINEL = `\u0000ln${NONCE}:`;
const SENTINEL_IN_JSON = `\\u0000ln${NONCE}:`;
const SENTINEL_OUTPUT = new RegExp(`"\\\\u0000ln${NONCE}:([^"]*)"`, 'g');

function roundTrips(token: string): boolean {
  return String(Number(token)) === token;
}

/**
 * Start and end offsets of every number token of `text` (valid JSON) that a JavaScript number
 * cannot reproduce exactly: the scan reports the few tokens whose shape allows loss, and each is
 * checked exactly. Most documents have none, so they allocate nothing here.
 */
function lossyNumberSpans(text: string): number[] {
  const candidates = suspiciousNumberSpans(text);
  const spans: number[] = [];
  for (let k = 0; k < candidates.length; k += 2) {
    const start = candidates[k]!;
    const end = candidates[k + 1]!;
    if (!roundTrips(text.slice(start, end))) spans.push(start, end);
  }
  return spans;
}

const BOM = '\uFEFF';

/**
 * Parses JSON like `JSON.parse` (so duplicate keys keep the last value, and keys that look like
 * array indices come first when serialized again, as in any JavaScript object), except that every number whose text a JavaScript number cannot
 * reproduce exactly becomes a `LosslessNumber` holding that text. Never throws: invalid JSON
 * returns `{ ok: false }`. A leading byte-order mark is ignored. Handles any nesting depth.
 */
export function parseJsonLossless(text: string): LosslessParseResult {
  const source = text.startsWith(BOM) ? text.slice(1) : text;
  const spans = lossyNumberSpans(source);
  if (spans.length > 0) {
    // One parse of the text with each lossy number turned into a sentinel string. The check
    // after it keeps an invalid text (`{1.0:2}`, `[1.0.0]`) from passing once rewritten; the
    // plain parse below then reports the text's own error.
    const value = parseOrUndefined(withSentinels(source, spans));
    if (value !== undefined && spansAreNumberValues(source, spans)) {
      const count = spans.length / 2;
      return { ok: true, value: reviveSentinels(value, count), losslessNumbers: count };
    }
  }
  try {
    return { ok: true, value: JSON.parse(source) as JsonValue, losslessNumbers: 0 };
  } catch (error) {
    return {
      ok: false,
      error: error instanceof SyntaxError ? error : new SyntaxError(String(error)),
    };
  }
}

function parseOrUndefined(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

/** `source` with every span replaced by a JSON string holding the sentinel and the token. */
function withSentinels(source: string, spans: number[]): string {
  const parts: string[] = [];
  let last = 0;
  for (let k = 0; k < spans.length; k += 2) {
    const start = spans[k]!;
    const end = spans[k + 1]!;
    parts.push(source.slice(last, start), `"${SENTINEL_IN_JSON}${source.slice(start, end)}"`);
    last = end;
  }
  parts.push(source.slice(last));
  return parts.join('');
}

const NUMBER_GRAMMAR = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** True when every span is a well-formed number that no `:` follows (so not an object key). */
function spansAreNumberValues(source: string, spans: number[]): boolean {
  for (let k = 0; k < spans.length; k += 2) {
    if (!NUMBER_GRAMMAR.test(source.slice(spans[k], spans[k + 1]))) return false;
    let next = spans[k + 1]!;
    let code = source.charCodeAt(next);
    while (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) {
      code = source.charCodeAt(++next);
    }
    if (code === 0x3a) return false;
  }
  return true;
}

function sentinelToNumber(value: string): LosslessNumber | undefined {
  return value.charCodeAt(0) === 0 && value.startsWith(SENTINEL)
    ? new LosslessNumber(value.slice(SENTINEL.length))
    : undefined;
}

/** True when something made an enumerable property inherited by every plain object. */
function objectPrototypeExtended(): boolean {
  for (const _ in Object.prototype) return true;
  return false;
}

/**
 * Replaces the `count` sentinel strings of a parsed value by `LosslessNumber`s, in place, and
 * stops as soon as all are found. Objects are read with `for…in`, much faster than `Object.keys`
 * on parsed objects, unless something extended `Object.prototype`.
 */
function reviveSentinels(root: JsonValue, count: number): JsonValue {
  if (typeof root === 'string') return sentinelToNumber(root) ?? root;
  if (typeof root !== 'object' || root === null) return root;
  const ownKeysOnly = objectPrototypeExtended();
  const stack: Array<JsonArray | JsonObject> = [root as JsonArray | JsonObject];
  let left = count;
  const revive = (container: JsonArray | JsonObject, key: string | number, item: JsonValue) => {
    if (typeof item === 'string') {
      const number = sentinelToNumber(item);
      if (number === undefined) return;
      Object.defineProperty(container, key, { value: number });
      left--;
    } else if (typeof item === 'object' && item !== null) {
      stack.push(item as JsonArray | JsonObject);
    }
  };
  while (stack.length > 0 && left > 0) {
    const container = stack.pop()!;
    if (Array.isArray(container)) {
      for (let i = 0; i < container.length; i++) revive(container, i, container[i]!);
    } else if (ownKeysOnly) {
      for (const key of Object.keys(container)) revive(container, key, container[key]!);
    } else {
      for (const key in container) revive(container, key, container[key]!);
    }
  }
  return root;
}

// Gives LosslessNumber a JSON form the native serializer can emit; the sentinel is swapped back
// for the raw number text after serialization.
Object.defineProperty(LosslessNumber.prototype, 'toJSON', {
  value(this: LosslessNumber) {
    return `${SENTINEL}${this.text}`;
  },
});

/**
 * Serializes a `JsonValue` as minified JSON, writing each `LosslessNumber` as its exact source
 * text. Uses the native serializer and falls back to an iterative one for nesting too deep for
 * the native call stack.
 */
export function stringifyJsonLossless(value: JsonValue): string {
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return stringifyIteratively(value);
  }
  return text.includes(SENTINEL_IN_JSON) ? text.replace(SENTINEL_OUTPUT, '$1') : text;
}

type Frame =
  | { kind: 'array'; value: JsonArray; index: number }
  | { kind: 'object'; value: JsonObject; keys: string[]; index: number; emitted: number };

function scalarJson(value: JsonValue): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (LosslessNumber.isInstance(value)) return value.text;
  return undefined;
}

function stringifyIteratively(root: JsonValue): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  const open = (value: JsonValue): void => {
    const scalar = scalarJson(value);
    if (scalar !== undefined) {
      out.push(scalar);
    } else if (Array.isArray(value)) {
      out.push('[');
      stack.push({ kind: 'array', value, index: 0 });
    } else {
      out.push('{');
      const object = value as JsonObject;
      stack.push({
        kind: 'object',
        value: object,
        keys: Object.keys(object),
        index: 0,
        emitted: 0,
      });
    }
  };
  open(root);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.kind === 'array') {
      if (frame.index >= frame.value.length) {
        out.push(']');
        stack.pop();
        continue;
      }
      if (frame.index > 0) out.push(',');
      const item = frame.value[frame.index++];
      open(item === undefined ? null : item);
    } else {
      // Skip undefined values the way JSON.stringify does.
      while (
        frame.index < frame.keys.length &&
        frame.value[frame.keys[frame.index]!] === undefined
      ) {
        frame.index++;
      }
      if (frame.index >= frame.keys.length) {
        out.push('}');
        stack.pop();
        continue;
      }
      const key = frame.keys[frame.index]!;
      out.push(`${frame.emitted > 0 ? ',' : ''}${JSON.stringify(key)}:`);
      frame.index++;
      frame.emitted++;
      open(frame.value[key]!);
    }
  }
  return out.join('');
}
