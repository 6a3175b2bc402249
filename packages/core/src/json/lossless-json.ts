import { LosslessNumber } from './lossless-number.js';

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

// Matches a JSON string literal (skipped) or a JSON number token. Only applied to text that
// JSON.parse accepts, so every number token outside a string is a real number.
const STRING_OR_NUMBER = /"[^"\\]*(?:\\.[^"\\]*)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

// A per-process nonce keeps sentinels apart from real strings: a string can only collide by
// containing this exact random token.
const NONCE = `${Math.random().toString(36).slice(2, 10)}${Date.now().toString(36)}`;
const SENTINEL = `\u0000ln${NONCE}:`;
const SENTINEL_IN_JSON = `\\u0000ln${NONCE}:`;
const SENTINEL_OUTPUT = new RegExp(`"\\\\u0000ln${NONCE}:([^"]*)"`, 'g');

function roundTrips(token: string): boolean {
  return String(Number(token)) === token;
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
  let plain: JsonValue;
  try {
    plain = JSON.parse(source) as JsonValue;
  } catch (error) {
    return {
      ok: false,
      error: error instanceof SyntaxError ? error : new SyntaxError(String(error)),
    };
  }
  if (typeof plain !== 'object' || plain === null) {
    if (typeof plain === 'number') {
      const token = source.trim();
      return roundTrips(token)
        ? { ok: true, value: plain, losslessNumbers: 0 }
        : { ok: true, value: new LosslessNumber(token), losslessNumbers: 1 };
    }
    return { ok: true, value: plain, losslessNumbers: 0 };
  }

  let parts: string[] | undefined;
  let last = 0;
  let count = 0;
  STRING_OR_NUMBER.lastIndex = 0;
  for (let match = STRING_OR_NUMBER.exec(source); match; match = STRING_OR_NUMBER.exec(source)) {
    const token = match[0];
    if (token.charCodeAt(0) === 34 /* " */ || roundTrips(token)) continue;
    parts ??= [];
    parts.push(source.slice(last, match.index), `"${SENTINEL_IN_JSON}${token}"`);
    last = match.index + token.length;
    count++;
  }
  if (!parts) return { ok: true, value: plain, losslessNumbers: 0 };
  parts.push(source.slice(last));
  const value = JSON.parse(parts.join('')) as JsonValue;
  return { ok: true, value: reviveSentinels(value), losslessNumbers: count };
}

function sentinelToNumber(value: string): LosslessNumber | undefined {
  return value.startsWith(SENTINEL) ? new LosslessNumber(value.slice(SENTINEL.length)) : undefined;
}

function reviveSentinels(root: JsonValue): JsonValue {
  if (typeof root === 'string') return sentinelToNumber(root) ?? root;
  const stack: Array<JsonArray | JsonObject> = [];
  if (typeof root === 'object' && root !== null && !LosslessNumber.isInstance(root))
    stack.push(root);
  while (stack.length > 0) {
    const container = stack.pop()!;
    if (Array.isArray(container)) {
      for (let i = 0; i < container.length; i++) {
        const item = container[i]!;
        if (typeof item === 'string') {
          const number = sentinelToNumber(item);
          if (number) container[i] = number;
        } else if (typeof item === 'object' && item !== null) stack.push(item as JsonArray);
      }
    } else {
      for (const key of Object.keys(container)) {
        const item = container[key]!;
        if (typeof item === 'string') {
          const number = sentinelToNumber(item);
          if (number) Object.defineProperty(container, key, { value: number });
        } else if (typeof item === 'object' && item !== null) stack.push(item as JsonObject);
      }
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
