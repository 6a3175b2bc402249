import {
  NUMBER_MARK,
  NUMBER_MARK_IN_JSON,
  rawJsonWriter,
  withNumberMarks,
} from './lossless-json-features.js';
import { LosslessNumber } from './lossless-number.js';
import { scanNumberTokens } from './scan-number-tokens.js';

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

const MARK_OUTPUT = new RegExp(`"${NUMBER_MARK_IN_JSON.replaceAll('\\', '\\\\')}([^"]*)"`, 'g');

const BOM = '\uFEFF';

/**
 * Parses JSON like `JSON.parse` (so duplicate keys keep the last value, and keys that look like
 * array indices come first when serialized again, as in any JavaScript object), except that
 * every number whose text a JavaScript number cannot reproduce exactly becomes a
 * `LosslessNumber` holding that text. Never throws: invalid JSON returns `{ ok: false }`. A
 * leading byte-order mark is ignored. Handles any nesting depth.
 *
 * One native parse, then one scan of the text for number tokens whose shape allows loss (see
 * `scanNumberTokens`); each is checked exactly. Most documents have none and are done. Otherwise
 * the parsed tree is walked in text order and the n-th number replaced for the n-th token; when
 * the tree's order cannot be trusted to be the text's (keys that look like array indices,
 * duplicate keys, nesting too deep to recurse), the text is parsed once more with each lossy
 * token rewritten as a marked string instead. (A reviver reading `context.source`, where the
 * engine has it, is exact too but measured slower than both paths: see bench/results.)
 */
export function parseJsonLossless(text: string): LosslessParseResult {
  const source = text.startsWith(BOM) ? text.slice(1) : text;
  let value: JsonValue;
  try {
    value = JSON.parse(source) as JsonValue;
  } catch (error) {
    return {
      ok: false,
      error: error instanceof SyntaxError ? error : new SyntaxError(String(error)),
    };
  }
  const scan = scanNumberTokens(source);
  const lossy: number[] = [];
  const { spans } = scan;
  for (let k = 0; k < spans.length; k += 3) {
    const start = spans[k]!;
    const end = spans[k + 1]!;
    if (LosslessNumber.isNeededFor(source.slice(start, end))) lossy.push(start, end, spans[k + 2]!);
  }
  if (lossy.length === 0) return { ok: true, value, losslessNumbers: 0 };
  const losslessNumbers = lossy.length / 3;
  const attached = attachInTextOrder(value, source, lossy, scan.numbers, scan.strings);
  if (attached !== undefined) return { ok: true, value: attached, losslessNumbers };
  const rewritten = JSON.parse(withMarks(source, lossy)) as JsonValue;
  return { ok: true, value: reviveMarks(rewritten, losslessNumbers), losslessNumbers };
}

/** Thrown inside `attachInTextOrder` when the tree's order may differ from the text's. */
const OUT_OF_ORDER = Symbol('out of order');

/**
 * Replaces, in place, the numbers of a freshly parsed tree at the ordinals of `lossy` (triples
 * of start, end, ordinal) by `LosslessNumber`s of their source text. The tree is walked in
 * property order, which is the text's order unless an object has index-like keys (enumerated
 * first: the walk gives up on any object whose first key starts with a digit) or duplicate keys
 * (detected after the walk: the tree then holds fewer strings than the text). Returns undefined
 * when the order cannot be trusted; the tree may then be partly changed and must be dropped.
 */
function attachInTextOrder(
  root: JsonValue,
  source: string,
  lossy: number[],
  numbers: number,
  strings: number,
): JsonValue | undefined {
  if (objectPrototypeExtended()) return undefined;
  let next = 0;
  let target = lossy[2]!;
  let seenNumbers = 0;
  let seenStrings = 0;
  const visit = (value: JsonValue): JsonValue => {
    if (typeof value === 'number') {
      if (seenNumbers++ !== target) return value;
      const number = new LosslessNumber(source.slice(lossy[next], lossy[next + 1]));
      next += 3;
      target = next < lossy.length ? lossy[next + 2]! : -1;
      return number;
    }
    if (typeof value === 'string') {
      seenStrings++;
      return value;
    }
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item = value[i]!;
        const kept = visit(item);
        if (kept !== item) value[i] = kept;
      }
      return value;
    }
    const object = value as JsonObject;
    let first = true;
    for (const key in object) {
      if (first) {
        const lead = key.charCodeAt(0);
        if (lead >= 48 && lead <= 57) throw OUT_OF_ORDER;
        first = false;
      }
      seenStrings++;
      const item = object[key]!;
      const kept = visit(item);
      if (kept !== item) Object.defineProperty(object, key, { value: kept });
    }
    return value;
  };
  let result: JsonValue;
  try {
    result = visit(root);
  } catch (error) {
    // A RangeError is nesting too deep for recursion; the marked-string path handles any depth.
    if (error === OUT_OF_ORDER || error instanceof RangeError) return undefined;
    throw error;
  }
  return seenNumbers === numbers && seenStrings === strings && next === lossy.length
    ? result
    : undefined;
}

/** `source` with every span (start, end, ordinal triples) replaced by a marked string. */
function withMarks(source: string, spans: number[]): string {
  const parts: string[] = [];
  let last = 0;
  for (let k = 0; k < spans.length; k += 3) {
    const start = spans[k]!;
    const end = spans[k + 1]!;
    parts.push(source.slice(last, start), `"${NUMBER_MARK_IN_JSON}${source.slice(start, end)}"`);
    last = end;
  }
  parts.push(source.slice(last));
  return parts.join('');
}

function markToNumber(value: string): LosslessNumber | undefined {
  return value.charCodeAt(0) === 0 && value.startsWith(NUMBER_MARK)
    ? new LosslessNumber(value.slice(NUMBER_MARK.length))
    : undefined;
}

/** True when something made an enumerable property inherited by every plain object. */
function objectPrototypeExtended(): boolean {
  for (const _ in Object.prototype) return true;
  return false;
}

/**
 * Replaces the `count` marked strings of a parsed value by `LosslessNumber`s, in place, and
 * stops as soon as all are found. Objects are read with `for…in`, much faster than `Object.keys`
 * on parsed objects, unless something extended `Object.prototype`.
 */
function reviveMarks(root: JsonValue, count: number): JsonValue {
  if (typeof root === 'string') return markToNumber(root) ?? root;
  if (typeof root !== 'object' || root === null) return root;
  const ownKeysOnly = objectPrototypeExtended();
  const stack: Array<JsonArray | JsonObject> = [root as JsonArray | JsonObject];
  let left = count;
  const revive = (container: JsonArray | JsonObject, key: string | number, item: JsonValue) => {
    if (typeof item === 'string') {
      const number = markToNumber(item);
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

/**
 * Serializes a `JsonValue` as minified JSON, writing each `LosslessNumber` as its exact source
 * text. Uses the native serializer (with `JSON.rawJSON` where the engine has it, else with
 * private markers swapped for the raw text afterwards) and falls back to an iterative one for
 * nesting too deep for the native call stack.
 */
export function stringifyJsonLossless(value: JsonValue): string {
  try {
    if (rawJsonWriter()) return JSON.stringify(value);
    const text = withNumberMarks(() => JSON.stringify(value));
    return text.includes(NUMBER_MARK_IN_JSON) ? text.replace(MARK_OUTPUT, '$1') : text;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return stringifyIteratively(value);
  }
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
