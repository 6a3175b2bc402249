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
const SURROGATE_START = 0xd800;
const SURROGATE_END = 0xdfff;
const DIGIT_ZERO = 0x30;
const DIGIT_NINE = 0x39;
// Array indices run up to 2^32 - 2; a JavaScript object lists such keys first, ascending.
const MAX_ARRAY_INDEX = 4_294_967_294;

// One shape for arrays and objects keeps the loop's property accesses monomorphic.
interface Frame {
  /** Record of the next array item to write; unused for an object. */
  cursor: number;
  /** The object's written keys (quoted, with the colon), in order; undefined for an array. */
  keys: string[] | undefined;
  /** Record of each written key's value, in order; undefined for an array. */
  values: number[] | undefined;
  /** Next item or key to write. */
  index: number;
  /** Items or keys to write. */
  end: number;
  /** Nesting depth of the container (the root is 1). */
  depth: number;
  /** What closes the container: any sentinel, then `]` or `}`. */
  close: string;
}

/** An object's members as `JSON.parse` keeps them: distinct keys, each with its last value. */
interface Members {
  /** Distinct keys in first-occurrence order. */
  keys: string[];
  /** Record of each key's last value. */
  values: number[];
  /** Index in `keys` of each key, when the object has more than one member. */
  positions: Map<string, number> | undefined;
}

/** JSON of a decoded string, a leading "…" written as `\u2026` to tell it from a sentinel. */
function quote(value: string): string {
  const json = JSON.stringify(value);
  return value.charCodeAt(0) === ELLIPSIS ? `"\\u2026${json.slice(2)}` : json;
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

/**
 * Digests a JSON text from its tape: exactly the digest `digestValue` makes of the parsed text
 * (see there for the caps), read from the records of the kept part only. Numbers, literals and
 * plain strings and keys are sliced from the text verbatim; a string or key is decoded only
 * when it has an escape, a surrogate or a leading "…", or when its length needs a count.
 * Objects follow `JSON.parse`: a duplicate key is kept once, at its first place, with its last
 * value; keys that are array indices come first, ascending. Iterative, so any depth is fine.
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

  const keyOf = (member: number): string => {
    const base = member * TAPE_STRIDE;
    const start = records[base + TAPE_KEY_START]!;
    const end = records[base + TAPE_KEY_END]!;
    return (records[base + TAPE_FLAGS]! & TAPE_ESCAPED_KEY) === 0
      ? text.slice(start + 1, end - 1)
      : (JSON.parse(text.slice(start, end)) as string);
  };

  const membersOf = (object: number): Members => {
    const base = object * TAPE_STRIDE;
    const keys: string[] = [];
    const values: number[] = [];
    const size = records[base + TAPE_SIZE]!;
    if (size === 0) return { keys, values, positions: undefined };
    const first = object + 1;
    if (size === 1) return { keys: [keyOf(first)], values: [first], positions: undefined };
    const positions = new Map<string, number>();
    const end = records[base + TAPE_NEXT]!;
    for (let member = first; member < end; member = records[member * TAPE_STRIDE + TAPE_NEXT]!) {
      const key = keyOf(member);
      const position = positions.get(key);
      if (position === undefined) {
        positions.set(key, keys.length);
        keys.push(key);
        values.push(member);
      } else {
        values[position] = member;
      }
    }
    return { keys, values, positions };
  };

  // Distinct keys of an object, for its descriptor.
  const keyCount = (object: number): number => {
    const base = object * TAPE_STRIDE;
    const size = records[base + TAPE_SIZE]!;
    if (size <= 1) return size;
    const seen = new Set<string>();
    const end = records[base + TAPE_NEXT]!;
    for (
      let member = object + 1;
      member < end;
      member = records[member * TAPE_STRIDE + TAPE_NEXT]!
    ) {
      seen.add(keyOf(member));
    }
    return seen.size;
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
    if (end - start - 2 > scalarMax) {
      const chars = countCodePoints(text.slice(start + 1, end - 1));
      if (chars > scalarMax) {
        elisions.stringsElided++;
        return `"…(${chars} chars)"`;
      }
    }
    // The serializer writes an unescaped string as it is, except a lone surrogate (escaped)
    // and a leading "…" (escaped by the digest).
    let plain = text.charCodeAt(start + 1) !== ELLIPSIS;
    for (let i = start + 1; plain && i < end - 1; i++) {
      const code = text.charCodeAt(i);
      plain = code < SURROGATE_START || code > SURROGATE_END;
    }
    return plain ? text.slice(start, end) : quote(text.slice(start + 1, end - 1));
  };

  // The text of a scalar or a descriptor, or the opening bracket of a container whose frame it
  // pushes.
  const open = (record: number, depth: number): string => {
    const base = record * TAPE_STRIDE;
    const kind = records[base + TAPE_KIND]!;
    if (kind === TAPE_STRING) return stringJson(base);
    if (kind === TAPE_ARRAY) {
      const length = records[base + TAPE_SIZE]!;
      if (depth > maxDepth && length > 0) {
        elisions.containersElided++;
        return `"…(array of ${length})"`;
      }
      const end = Math.min(length, arraySample);
      let close = ']';
      if (end < length) {
        elisions.arraysSampled++;
        close = `${end > 0 ? ',' : ''}"…${length - end} more of ${length}"]`;
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
    if (kind === TAPE_OBJECT) {
      if (depth > maxDepth) {
        const total = keyCount(record);
        if (total > 0) {
          elisions.containersElided++;
          return `"…(object of ${total} key${total === 1 ? '' : 's'})"`;
        }
      }
      const members = membersOf(record);
      const total = members.keys.length;
      if (total === 0) return '{}';
      let keys: string[];
      let values: number[];
      let close = '}';
      if (total > maxKeys) {
        elisions.objectsSampled++;
        keys = smallestKeys(members.keys, maxKeys);
        const positions = members.positions ?? new Map([[members.keys[0]!, 0]]);
        values = keys.map((key) => members.values[positions.get(key)!]!);
        let sentinelKey = '…';
        while (positions.has(sentinelKey)) sentinelKey += '…';
        close = `${keys.length > 0 ? ',' : ''}"${sentinelKey}":"…${total - keys.length} more of ${total} keys"}`;
        if (keys.length === 0) return `{${close}`;
      } else {
        ({ keys, values } = inObjectOrder(members));
      }
      stack.push({
        cursor: 0,
        keys: keys.map((key) => `${quote(key)}:`),
        values,
        index: 0,
        end: keys.length,
        depth,
        close,
      });
      return '{';
    }
    // A number (its source token is what the lossless parse writes) or a literal.
    return text.slice(records[base + TAPE_START]!, records[base + TAPE_END]!);
  };

  let out = open(0, 1);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.index < frame.end) {
      const index = frame.index++;
      const separator = index > 0 ? ',' : '';
      if (frame.keys === undefined) {
        const item = frame.cursor;
        frame.cursor = records[item * TAPE_STRIDE + TAPE_NEXT]!;
        out += separator + open(item, frame.depth + 1);
      } else {
        out += separator + frame.keys[index]!;
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

/** Members in a JavaScript object's key order: array indices first, ascending, then the rest. */
function inObjectOrder(members: Members): { keys: string[]; values: number[] } {
  const { keys, values } = members;
  let indices = 0;
  for (const key of keys) {
    const first = key.charCodeAt(0);
    if (first >= DIGIT_ZERO && first <= DIGIT_NINE && isArrayIndex(key)) indices++;
  }
  if (indices === 0) return members;
  const order = keys.map((_, i) => i);
  const rank = (i: number): number => (isArrayIndex(keys[i]!) ? Number(keys[i]) : -1);
  const ranks = order.map(rank);
  const indexed = order.filter((i) => ranks[i]! >= 0).sort((a, b) => ranks[a]! - ranks[b]!);
  const named = order.filter((i) => ranks[i]! < 0);
  const sorted = [...indexed, ...named];
  return { keys: sorted.map((i) => keys[i]!), values: sorted.map((i) => values[i]!) };
}
