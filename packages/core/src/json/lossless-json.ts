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

// A per-process nonce keeps sentinels apart from real strings: a string can only collide by
// containing this exact random token.
const NONCE = `${Math.random().toString(36).slice(2, 10)}${Date.now().toString(36)}`;
const SENTINEL = `\u0000ln${NONCE}:`;
const SENTINEL_IN_JSON = `\\u0000ln${NONCE}:`;
const SENTINEL_OUTPUT = new RegExp(`"\\\\u0000ln${NONCE}:([^"]*)"`, 'g');

function roundTrips(token: string): boolean {
  return String(Number(token)) === token;
}

const QUOTE = 34;
const BACKSLASH = 92;
const MINUS = 45;
const PLUS = 43;
const DOT = 46;
const ZERO = 48;
const NINE = 57;

/** Index of the quote that closes the string opened at `open`, or -1. */
function closingQuote(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  while (end > 0 && text.charCodeAt(end - 1) === BACKSLASH) {
    let backslashes = 0;
    for (let k = end - 1; text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) break;
    end = text.indexOf('"', end + 1);
  }
  return end;
}

/**
 * Start and end offsets of every number token of `text` (valid JSON) that a JavaScript number
 * cannot reproduce exactly. Strings are skipped with native `indexOf`; a number is sliced and
 * checked only when its shape allows loss: an exponent, 15 or more digits, a fraction ending in
 * 0, `-0`, or a fraction small enough for exponent notation. Shorter, plain tokens always
 * round-trip, so most documents allocate nothing here.
 */
function lossyNumberSpans(text: string): number[] {
  const spans: number[] = [];
  const length = text.length;
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      const end = closingQuote(text, i);
      if (end < 0) break;
      i = end + 1;
      continue;
    }
    if (code !== MINUS && (code < ZERO || code > NINE)) {
      i++;
      continue;
    }
    const start = i;
    let digits = 0;
    let last = 0;
    let dot = false;
    let exponent = false;
    for (i = start + 1, digits = code === MINUS ? 0 : 1, last = code; i < length; i++) {
      const c = text.charCodeAt(i);
      if (c >= ZERO && c <= NINE) {
        digits++;
        last = c;
      } else if (c === DOT) dot = true;
      else if (c === 101 || c === 69 || c === PLUS || c === MINUS) exponent = true;
      else break;
    }
    const first = text.charCodeAt(code === MINUS ? start + 1 : start);
    const suspicious =
      exponent ||
      digits >= 15 ||
      (dot && last === ZERO) ||
      (code === MINUS && digits === 1 && first === ZERO) ||
      (dot && first === ZERO && digits > 6);
    if (suspicious && !roundTrips(text.slice(start, i))) spans.push(start, i);
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

  const spans = lossyNumberSpans(source);
  if (spans.length === 0) return { ok: true, value: plain, losslessNumbers: 0 };
  const parts: string[] = [];
  let last = 0;
  for (let k = 0; k < spans.length; k += 2) {
    const start = spans[k]!;
    const end = spans[k + 1]!;
    parts.push(source.slice(last, start), `"${SENTINEL_IN_JSON}${source.slice(start, end)}"`);
    last = end;
  }
  const count = spans.length / 2;
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
