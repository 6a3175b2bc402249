import {
  type JsonTape,
  TAPE_ARRAY,
  TAPE_END,
  TAPE_ESCAPED_KEY,
  TAPE_ESCAPED_VALUE,
  TAPE_FLAGS,
  TAPE_KEY_END,
  TAPE_KEY_START,
  TAPE_KIND,
  TAPE_NEXT,
  TAPE_OBJECT,
  TAPE_SIZE,
  TAPE_START,
  TAPE_STRIDE,
  TAPE_STRING,
  utf8ByteLength,
} from '@compaction/core';
import { countCodePoints } from './count-code-points.js';
import type { DigestCaps } from './digest-settings.js';
import type { DigestElisions, ValueDigest } from './digest-value.js';
import { smallestKeys } from './smallest-keys.js';

const ELLIPSIS = 0x2026;
const COLON = 0x3a;
const DIGIT_ZERO = 0x30;
const DIGIT_NINE = 0x39;
// Array indices run up to 2^32 - 2; a JavaScript object lists such keys first, ascending.
const MAX_ARRAY_INDEX = 4_294_967_294;
// Up to this many members, a duplicate key is looked for only among keys of the same signature
// (see readMembers); beyond, through a map.
const SIGNED_MEMBERS = 128;
const SIGNATURE_SHIFT = 22;
const SIGNATURES = 2 ** (32 - SIGNATURE_SHIFT);

// One shape for arrays and objects keeps the loop's property accesses monomorphic.
interface Frame {
  /** Record of the next array item to write; unused for an object. */
  cursor: number;
  /** For an object, each kept key as written (JSON and colon), in order. */
  keys: string[] | undefined;
  /** For an object, the record of each kept key's value (its last one), in order. */
  values: number[] | undefined;
  /** Next item or member to write. */
  index: number;
  /** Items or members to write. */
  end: number;
  /** Nesting depth of the container (the root is 1). */
  depth: number;
  /** What closes the container: any sentinel, then `]` or `}`. */
  close: string;
}

/** JSON of a decoded string, a leading "…" written as `\u2026` to tell it from a sentinel. */
function quote(value: string): string {
  const json = JSON.stringify(value);
  return value.charCodeAt(0) === ELLIPSIS ? `"\\u2026${json.slice(2)}` : json;
}

/**
 * True when `text` has no lone surrogate, so the serializer writes it as it is. Native
 * (ES2024, Node 20), and instant on a string of Latin-1 units.
 */
function isWellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/** True when `key` is an array index: canonical decimal, at most 2^32 - 2. */
function isArrayIndex(key: string): boolean {
  const length = key.length;
  if (length === 0 || length > 10) return false;
  const first = key.charCodeAt(0);
  if (first < DIGIT_ZERO || first > DIGIT_NINE || (first === DIGIT_ZERO && length > 1)) {
    return false;
  }
  for (let i = 1; i < length; i++) {
    const code = key.charCodeAt(i);
    if (code < DIGIT_ZERO || code > DIGIT_NINE) return false;
  }
  return length < 10 || Number(key) <= MAX_ARRAY_INDEX;
}

/** The key a written key (its JSON, then a colon) stands for. */
function decodeKey(written: string): string {
  return written.includes('\\')
    ? (JSON.parse(written.slice(0, -1)) as string)
    : written.slice(1, -2);
}

/**
 * Digests a JSON text from its tape: exactly the digest `digestValue` makes of the parsed text
 * (see there for the caps), read from the records of the kept part only. Numbers, literals and
 * plain strings and keys are sliced from the text verbatim; a string or key is decoded only
 * when it has an escape, a lone surrogate or a leading "…", or when its length needs a count.
 * Objects follow `JSON.parse`: a duplicate key is kept once, at its first place, with its last
 * value; keys that are array indices come first, ascending. Iterative, so any depth is fine.
 *
 * Every step on the text is native (slice, compare, hash, concatenate, validate): a loop over
 * units in JavaScript would cost about as much per unit as parsing it.
 */
export function digestTape(tape: JsonTape, caps: DigestCaps): ValueDigest {
  const { arraySample, scalarMax, maxKeys, maxDepth } = caps;
  const { text, records } = tape;
  const elisions: DigestElisions = {
    arraysSampled: 0,
    objectsSampled: 0,
    stringsElided: 0,
    containersElided: 0,
  };
  const stack: Frame[] = [];

  // A member's key as the digest writes it, with its colon. Written keys are equal exactly when
  // the keys are, so it is also the key's identity.
  const writtenKey = (base: number): string => {
    const start = records[base + TAPE_KEY_START]!;
    const end = records[base + TAPE_KEY_END]!;
    if ((records[base + TAPE_FLAGS]! & TAPE_ESCAPED_KEY) === 0) {
      // The colon usually follows the closing quote directly.
      const written =
        text.charCodeAt(end) === COLON ? text.slice(start, end + 1) : `${text.slice(start, end)}:`;
      if (text.charCodeAt(start + 1) !== ELLIPSIS && isWellFormed(written)) return written;
      return `${quote(text.slice(start + 1, end - 1))}:`;
    }
    return `${quote(JSON.parse(text.slice(start, end)) as string)}:`;
  };

  const stringJson = (base: number): string => {
    const start = records[base + TAPE_START]!;
    const end = records[base + TAPE_END]!;
    if ((records[base + TAPE_FLAGS]! & TAPE_ESCAPED_VALUE) !== 0) {
      const value = JSON.parse(text.slice(start, end)) as string;
      if (value.length > scalarMax) {
        const chars = countCodePoints(value);
        if (chars > scalarMax) {
          elisions.stringsElided++;
          return `"…(${chars} chars)"`;
        }
      }
      return quote(value);
    }
    // Without escapes the text between the quotes is the value, and code points never
    // outnumber its units, so short strings need no count.
    const json = text.slice(start, end);
    if (json.length - 2 > scalarMax) {
      const chars = countCodePoints(json) - 2;
      if (chars > scalarMax) {
        elisions.stringsElided++;
        return `"…(${chars} chars)"`;
      }
    }
    // The serializer writes such a string as it is, except a lone surrogate (escaped) and a
    // leading "…" (escaped by the digest).
    return json.charCodeAt(1) !== ELLIPSIS && isWellFormed(json) ? json : quote(json.slice(1, -1));
  };

  // Per signature of a written key (its length and two of its units), the stamp of the last
  // object that held a key with it: a key whose signature the object has not had yet is new
  // without comparing it to any other key.
  const seen = new Int32Array(SIGNATURES);
  let stamp = 0;

  // The distinct keys of an object as JSON.parse keeps them, in first-occurrence order, as
  // written keys, and the record of each one's last value.
  const readMembers = (object: number, keys: string[], values: number[]): void => {
    const size = records[object * TAPE_STRIDE + TAPE_SIZE]!;
    const end = records[object * TAPE_STRIDE + TAPE_NEXT]!;
    const places = size > SIGNED_MEMBERS ? new Map<string, number>() : undefined;
    stamp++;
    for (
      let member = object + 1;
      member < end;
      member = records[member * TAPE_STRIDE + TAPE_NEXT]!
    ) {
      const key = writtenKey(member * TAPE_STRIDE);
      let place = -1;
      if (places === undefined) {
        const length = key.length;
        const signature =
          (Math.imul(length, 0x9e3779b1) ^
            Math.imul(key.charCodeAt(1), 0x85ebca6b) ^
            Math.imul(key.charCodeAt(length - 3), 0xc2b2ae35)) >>>
          SIGNATURE_SHIFT;
        if (seen[signature] === stamp) place = keys.indexOf(key);
        else seen[signature] = stamp;
      } else {
        place = places.get(key) ?? -1;
        if (place < 0) places.set(key, keys.length);
      }
      if (place < 0) {
        keys.push(key);
        values.push(member);
      } else {
        values[place] = member;
      }
    }
  };

  // The text of an object's descriptor, or its opening brace (its frame pushed), or all of it.
  const openObject = (record: number, depth: number): string => {
    let keys: string[] = [];
    let values: number[] = [];
    readMembers(record, keys, values);
    const total = keys.length;
    if (depth > maxDepth && total > 0) {
      elisions.containersElided++;
      return `"…(object of ${total} key${total === 1 ? '' : 's'})"`;
    }
    if (total === 0) return '{}';
    let close = '}';
    if (total > maxKeys) {
      elisions.objectsSampled++;
      const places = new Map<string, number>();
      for (let i = 0; i < total; i++) places.set(decodeKey(keys[i]!), i);
      const smallest = smallestKeys([...places.keys()], maxKeys);
      const kept = smallest.map((key) => places.get(key)!);
      keys = kept.map((i) => keys[i]!);
      values = kept.map((i) => values[i]!);
      let sentinelKey = '…';
      while (places.has(sentinelKey)) sentinelKey += '…';
      close = `${kept.length > 0 ? ',' : ''}"${sentinelKey}":"…${total - kept.length} more of ${total} keys"}`;
      if (kept.length === 0) return `{${close}`;
    } else {
      inObjectOrder(keys, values);
    }
    stack.push({ cursor: 0, keys, values, index: 0, end: keys.length, depth, close });
    return '{';
  };

  // The text of a scalar or a descriptor, or the opening bracket of a container whose frame it
  // pushes.
  const open = (record: number, depth: number): string => {
    const base = record * TAPE_STRIDE;
    const kind = records[base + TAPE_KIND]!;
    if (kind === TAPE_STRING) return stringJson(base);
    if (kind === TAPE_OBJECT) return openObject(record, depth);
    if (kind === TAPE_ARRAY) {
      const items = records[base + TAPE_SIZE]!;
      if (depth > maxDepth && items > 0) {
        elisions.containersElided++;
        return `"…(array of ${items})"`;
      }
      const end = Math.min(items, arraySample);
      let close = ']';
      if (end < items) {
        elisions.arraysSampled++;
        close = `${end > 0 ? ',' : ''}"…${items - end} more of ${items}"]`;
      }
      if (end === 0) return `[${close}`;
      stack.push({
        cursor: record + 1,
        keys: undefined,
        values: undefined,
        index: 0,
        end,
        depth,
        close,
      });
      return '[';
    }
    // A number (its source token is what the lossless parse writes) or a literal.
    return text.slice(records[base + TAPE_START]!, records[base + TAPE_END]!);
  };

  let out = open(0, 1);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.index < frame.end) {
      const index = frame.index++;
      if (index > 0) out += ',';
      if (frame.keys === undefined) {
        const item = frame.cursor;
        frame.cursor = records[item * TAPE_STRIDE + TAPE_NEXT]!;
        out += open(item, frame.depth + 1);
      } else {
        out += frame.keys[index]!;
        out += open(frame.values![index]!, frame.depth + 1);
      }
      continue;
    }
    out += frame.close;
    stack.pop();
  }

  const contentLost =
    elisions.arraysSampled +
      elisions.objectsSampled +
      elisions.stringsElided +
      elisions.containersElided >
    0;
  return { text: out, bytes: utf8ByteLength(out), contentLost, elisions };
}

/** Reorders written keys and their values (in place) as a JavaScript object lists its keys. */
function inObjectOrder(keys: string[], values: number[]): void {
  let ranks: number[] | undefined;
  for (let i = 0; i < keys.length; i++) {
    // A written key starts with its quote; an array index has no escape.
    const lead = keys[i]!.charCodeAt(1);
    if (lead < DIGIT_ZERO || lead > DIGIT_NINE) continue;
    const key = keys[i]!.slice(1, -2);
    if (!isArrayIndex(key)) continue;
    ranks ??= keys.map(() => -1);
    ranks[i] = Number(key);
  }
  if (ranks === undefined) return;
  const order = keys.map((_, i) => i);
  const indexed = order.filter((i) => ranks[i]! >= 0).sort((a, b) => ranks[a]! - ranks[b]!);
  const sorted = [...indexed, ...order.filter((i) => ranks[i]! < 0)];
  const sortedKeys = sorted.map((i) => keys[i]!);
  const sortedValues = sorted.map((i) => values[i]!);
  for (let i = 0; i < sorted.length; i++) {
    keys[i] = sortedKeys[i]!;
    values[i] = sortedValues[i]!;
  }
}
