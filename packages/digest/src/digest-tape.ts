import { type JsonTape, LosslessNumber, utf8ByteLength } from '@compaction/core';
import {
  TAPE_ARRAY,
  TAPE_END,
  TAPE_ESCAPED_KEY,
  TAPE_ESCAPED_VALUE,
  TAPE_FLAGS,
  TAPE_KEY_END,
  TAPE_KEY_START,
  TAPE_KIND,
  TAPE_NEXT,
  TAPE_NUMBER,
  TAPE_OBJECT,
  TAPE_SIZE,
  TAPE_START,
  TAPE_STRIDE,
  TAPE_STRING,
} from '@compaction/core/internal';
import { countCodePoints } from './count-code-points.js';
import type { DigestCaps } from './digest-settings.js';
import type { DigestElisions, ValueDigest } from './digest-value.js';
import { type DigestPassOptions, digestWorkPoll } from './digest-work-poll.js';
import { smallestKeys } from './smallest-keys.js';

const ELLIPSIS = 0x2026;
const COMMA = 0x2c;
const COLON = 0x3a;
const DIGIT_ZERO = 0x30;
const DIGIT_NINE = 0x39;
// Array indices run up to 2^32 - 2; a JavaScript object lists such keys first, ascending.
const MAX_ARRAY_INDEX = 4_294_967_294;
// Up to this many members, a duplicate key is looked for only among the keys that share its
// signature (see readMembers); beyond, through a map.
const SIGNED_MEMBERS = 128;
// Keys of one object sharing a signature with an earlier one before it goes through a map.
const ALIKE_KEYS = 8;
const SIGNATURE_SHIFT = 22;
const SIGNATURES = 2 ** (32 - SIGNATURE_SHIFT);
// Scratch of readMembers, shared by all calls (digestTape is synchronous, so they never overlap):
// per signature of a key (its length and two of its units), the stamp of the last object read
// that had a key with it. A key whose signature its object has not had yet is new without
// comparing it with any other key.
let signatureStamps: Int32Array | undefined;
let lastStamp = 0;

function nextSignatureStamp(): { seen: Int32Array; stamp: number } {
  if (signatureStamps === undefined || lastStamp === 0x7fffffff) {
    signatureStamps = new Int32Array(SIGNATURES);
    lastStamp = 0;
  }
  return { seen: signatureStamps, stamp: ++lastStamp };
}

// Stand-in for the digest's own "…" while it is written (see writeTapeDigest).
const OWN = '\u007f';
const OWN_IN_DATA = Symbol('own stand-in in the data');
const LONE_SURROGATE = Symbol('lone surrogate in a copied string');

// One shape for arrays and objects keeps the loop's property accesses monomorphic.
interface Frame {
  /** Record of the next array item to write; unused for an object. */
  cursor: number;
  /** For an object, per kept key in order, the member where the key first appears. */
  keys: number[] | undefined;
  /** For an object, the record of each kept key's value (its last one), in order. */
  values: number[] | undefined;
  /** Next item or member to write. */
  index: number;
  /** Items or members to write. */
  end: number;
  /** Nesting depth of the container (the root is 1). */
  depth: number;
  /** Record of the container. */
  record: number;
  /** What closes the container after its last item or member when it is sampled; else ''. */
  close: string;
}

/** JSON of a decoded string, a leading "…" written as `\u2026` to tell it from a sentinel. */
function quote(value: string): string {
  const json = JSON.stringify(value);
  return value.charCodeAt(0) === ELLIPSIS ? `"\\u2026${json.slice(2)}` : json;
}

/**
 * True when `text` has no lone surrogate, so the serializer writes it as it is. Native
 * (ES2024, Node 20), instant on a string of Latin-1 units.
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

/**
 * Digests a JSON text from its tape: exactly the digest `digestValue` makes of the parsed text
 * (see there for the caps), read from the records of the kept part only. Objects follow
 * `JSON.parse`: a duplicate key is kept once, at its first place, with its last value; keys
 * that are array indices come first, ascending. Iterative, so any depth is fine.
 *
 * Numbers, literals, brackets and plain strings and keys are copied from the text: kept text
 * that is contiguous in the source (all of it, in minified JSON, but for elisions) is sliced
 * once. A string or key is decoded only when it has an escape or a leading "…", or when its
 * length needs a count. Every step on the text is native (slice, concatenate, validate): a loop
 * over units in JavaScript costs about as much per unit as parsing it.
 */
export function digestTape(
  tape: JsonTape,
  caps: DigestCaps,
  options: DigestPassOptions = {},
): ValueDigest {
  let standIn = true;
  let checkSurrogates = false;
  const poll = digestWorkPoll(options.shouldStop);
  for (;;) {
    const digest = writeTapeDigest(tape, caps, standIn, checkSurrogates, poll);
    if (digest === OWN_IN_DATA) standIn = false;
    else if (digest === LONE_SURROGATE) checkSurrogates = true;
    else return digest;
  }
}

/**
 * The digest, or why it must be written again otherwise. `standIn`: write the digest's own "…"
 * as DEL, swapped back at the end, so that the digest of a Latin-1 text stays a Latin-1 string
 * until then, which is several times faster to measure and to check (OWN_IN_DATA when the data
 * has a DEL itself). `checkSurrogates`: check each copied string for a lone surrogate, which
 * the serializer escapes; without, the whole digest is checked once (LONE_SURROGATE when it has
 * one: two lone surrogates never pair up across strings, each string being quoted).
 */
function writeTapeDigest(
  tape: JsonTape,
  caps: DigestCaps,
  standIn: boolean,
  checkSurrogates: boolean,
  poll: (() => void) | undefined,
): ValueDigest | typeof OWN_IN_DATA | typeof LONE_SURROGATE {
  const { arraySample, scalarMax, maxKeys, maxDepth } = caps;
  const own = standIn ? OWN : '…';
  let owns = 0;
  const { text, records } = tape;
  const elisions: DigestElisions = {
    arraysSampled: 0,
    objectsSampled: 0,
    stringsElided: 0,
    containersElided: 0,
  };
  const stack: Frame[] = [];
  let out = '';
  let losslessNumbers = 0;
  // Text copied as it is, not yet added to `out`: [spanStart, spanEnd).
  let spanStart = 0;
  let spanEnd = 0;

  const flush = (): void => {
    if (spanEnd > spanStart) out += text.slice(spanStart, spanEnd);
    spanStart = spanEnd;
  };
  const copy = (start: number, end: number): void => {
    if (start !== spanEnd) {
      flush();
      spanStart = start;
    }
    spanEnd = end;
  };
  const write = (value: string): void => {
    flush();
    out += value;
  };
  // A punctuation unit: copied when the text has it right where the copy stands.
  const punctuate = (code: number, value: string): void => {
    if (text.charCodeAt(spanEnd) === code) spanEnd++;
    else write(value);
  };

  const keyOf = (member: number): string => {
    const base = member * TAPE_STRIDE;
    const start = records[base + TAPE_KEY_START]!;
    const end = records[base + TAPE_KEY_END]!;
    return (records[base + TAPE_FLAGS]! & TAPE_ESCAPED_KEY) === 0
      ? text.slice(start + 1, end - 1)
      : (JSON.parse(text.slice(start, end)) as string);
  };

  const writeKey = (member: number): void => {
    const base = member * TAPE_STRIDE;
    const start = records[base + TAPE_KEY_START]!;
    const end = records[base + TAPE_KEY_END]!;
    if (
      (records[base + TAPE_FLAGS]! & TAPE_ESCAPED_KEY) === 0 &&
      text.charCodeAt(start + 1) !== ELLIPSIS &&
      (!checkSurrogates || isWellFormed(text.slice(start, end)))
    ) {
      copy(start, end);
      punctuate(COLON, ':');
    } else {
      write(`${quote(keyOf(member))}:`);
    }
  };

  const writeString = (base: number): void => {
    const start = records[base + TAPE_START]!;
    const end = records[base + TAPE_END]!;
    if ((records[base + TAPE_FLAGS]! & TAPE_ESCAPED_VALUE) !== 0) {
      const value = JSON.parse(text.slice(start, end)) as string;
      if (value.length > scalarMax) {
        const chars = countCodePoints(value);
        if (chars > scalarMax) {
          elisions.stringsElided++;
          owns++;
          write(`"${own}(${chars} chars)"`);
          return;
        }
      }
      write(quote(value));
      return;
    }
    // Without escapes the text between the quotes is the value, and code points never
    // outnumber its units, so short strings need no count.
    if (end - start - 2 > scalarMax) {
      const chars = countCodePoints(text.slice(start + 1, end - 1));
      if (chars > scalarMax) {
        elisions.stringsElided++;
        owns++;
        write(`"${own}(${chars} chars)"`);
        return;
      }
    }
    // The serializer writes such a string as it is, except a lone surrogate (escaped) and a
    // leading "…" (escaped by the digest).
    if (
      text.charCodeAt(start + 1) !== ELLIPSIS &&
      (!checkSurrogates || isWellFormed(text.slice(start, end)))
    ) {
      copy(start, end);
    } else {
      write(quote(text.slice(start + 1, end - 1)));
    }
  };

  const sameRawKey = (a: number, b: number): boolean => {
    const startA = records[a * TAPE_STRIDE + TAPE_KEY_START]!;
    const startB = records[b * TAPE_STRIDE + TAPE_KEY_START]!;
    const length = records[a * TAPE_STRIDE + TAPE_KEY_END]! - startA;
    if (records[b * TAPE_STRIDE + TAPE_KEY_END]! - startB !== length) return false;
    for (let i = 1; i < length - 1; i++) {
      if (text.charCodeAt(startA + i) !== text.charCodeAt(startB + i)) return false;
    }
    return true;
  };

  // The distinct keys of an object as JSON.parse keeps them: per key, in first-occurrence
  // order, the member where it first appears and the record of its last value. Returns false
  // when no key can be an array index (none starts with a digit or has an escape).
  const readMembers = (object: number, keys: number[], values: number[]): boolean => {
    const end = records[object * TAPE_STRIDE + TAPE_NEXT]!;
    if (records[object * TAPE_STRIDE + TAPE_SIZE]! > SIGNED_MEMBERS) {
      return readDecodedMembers(object, keys, values);
    }
    const { seen, stamp } = nextSignatureStamp();
    let digitLead = false;
    let alike = 0;
    for (let m = object + 1; m < end; m = records[m * TAPE_STRIDE + TAPE_NEXT]!) {
      poll?.();
      if ((records[m * TAPE_STRIDE + TAPE_FLAGS]! & TAPE_ESCAPED_KEY) !== 0) {
        keys.length = 0;
        values.length = 0;
        return readDecodedMembers(object, keys, values);
      }
      // Without escapes, keys are equal exactly when their text is.
      const start = records[m * TAPE_STRIDE + TAPE_KEY_START]!;
      const length = records[m * TAPE_STRIDE + TAPE_KEY_END]! - start;
      const lead = text.charCodeAt(start + 1);
      if (lead >= DIGIT_ZERO && lead <= DIGIT_NINE) digitLead = true;
      const signature =
        (Math.imul(length, 0x9e3779b1) ^
          Math.imul(lead, 0x85ebca6b) ^
          Math.imul(text.charCodeAt(start + length - 2), 0xc2b2ae35)) >>>
        SIGNATURE_SHIFT;
      let place = -1;
      if (seen[signature] === stamp) {
        // Keys made alike on purpose must not make this quadratic.
        if (++alike > ALIKE_KEYS) {
          keys.length = 0;
          values.length = 0;
          return readDecodedMembers(object, keys, values);
        }
        for (let j = 0; j < keys.length && place < 0; j++) {
          if (sameRawKey(keys[j]!, m)) place = j;
        }
      } else {
        seen[signature] = stamp;
      }
      if (place < 0) {
        keys.push(m);
        values.push(m);
      } else {
        values[place] = m;
      }
    }
    return digitLead;
  };

  // `readMembers` by decoded keys, for a wide object or one with an escaped key.
  const readDecodedMembers = (object: number, keys: number[], values: number[]): boolean => {
    const end = records[object * TAPE_STRIDE + TAPE_NEXT]!;
    const places = new Map<string, number>();
    for (let m = object + 1; m < end; m = records[m * TAPE_STRIDE + TAPE_NEXT]!) {
      poll?.();
      const key = keyOf(m);
      const place = places.get(key);
      if (place === undefined) {
        places.set(key, keys.length);
        keys.push(m);
        values.push(m);
      } else {
        values[place] = m;
      }
    }
    return true;
  };

  // Keys that are array indices first, ascending, as a JavaScript object lists them.
  const inObjectOrder = (keys: number[], values: number[]): void => {
    let ranks: number[] | undefined;
    for (let i = 0; i < keys.length; i++) {
      const base = keys[i]! * TAPE_STRIDE;
      const lead = text.charCodeAt(records[base + TAPE_KEY_START]! + 1);
      const escaped = (records[base + TAPE_FLAGS]! & TAPE_ESCAPED_KEY) !== 0;
      if (!escaped && (lead < DIGIT_ZERO || lead > DIGIT_NINE)) continue;
      const key = keyOf(keys[i]!);
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
  };

  const openObject = (record: number, depth: number): void => {
    let keys: number[] = [];
    let values: number[] = [];
    const digitLead = readMembers(record, keys, values);
    const total = keys.length;
    if (depth > maxDepth && total > 0) {
      elisions.containersElided++;
      owns++;
      write(`"${own}(object of ${total} key${total === 1 ? '' : 's'})"`);
      return;
    }
    const start = records[record * TAPE_STRIDE + TAPE_START]!;
    copy(start, start + 1);
    let close = '';
    if (total > maxKeys) {
      elisions.objectsSampled++;
      const places = new Map<string, number>();
      for (let i = 0; i < total; i++) places.set(keyOf(keys[i]!), i);
      const kept = smallestKeys([...places.keys()], maxKeys).map((key) => places.get(key)!);
      keys = kept.map((i) => keys[i]!);
      values = kept.map((i) => values[i]!);
      let ellipses = 1;
      while (places.has('…'.repeat(ellipses))) ellipses++;
      owns += ellipses + 1;
      close = `${kept.length > 0 ? ',' : ''}"${own.repeat(ellipses)}":"${own}${total - kept.length} more of ${total} keys"}`;
    } else if (digitLead) {
      inObjectOrder(keys, values);
    }
    stack.push({ cursor: 0, keys, values, index: 0, end: keys.length, depth, record, close });
  };

  // Writes a scalar or a descriptor, or opens a container and pushes its frame.
  const open = (record: number, depth: number): void => {
    const base = record * TAPE_STRIDE;
    const kind = records[base + TAPE_KIND]!;
    if (kind === TAPE_STRING) {
      writeString(base);
    } else if (kind === TAPE_OBJECT) {
      openObject(record, depth);
    } else if (kind === TAPE_ARRAY) {
      const items = records[base + TAPE_SIZE]!;
      if (depth > maxDepth && items > 0) {
        elisions.containersElided++;
        owns++;
        write(`"${own}(array of ${items})"`);
        return;
      }
      const end = Math.min(items, arraySample);
      let close = '';
      if (end < items) {
        elisions.arraysSampled++;
        owns++;
        close = `${end > 0 ? ',' : ''}"${own}${items - end} more of ${items}"]`;
      }
      const start = records[base + TAPE_START]!;
      copy(start, start + 1);
      stack.push({
        cursor: record + 1,
        keys: undefined,
        values: undefined,
        index: 0,
        end,
        depth,
        record,
        close,
      });
    } else {
      // A number (its source token is what the lossless parse writes) or a literal.
      const start = records[base + TAPE_START]!;
      const end = records[base + TAPE_END]!;
      if (kind === TAPE_NUMBER && LosslessNumber.isNeededFor(text.slice(start, end))) {
        losslessNumbers++;
      }
      copy(start, end);
    }
  };

  open(0, 1);
  while (stack.length > 0) {
    poll?.();
    const frame = stack[stack.length - 1]!;
    if (frame.index < frame.end) {
      if (frame.index++ > 0) punctuate(COMMA, ',');
      if (frame.keys === undefined) {
        const item = frame.cursor;
        frame.cursor = records[item * TAPE_STRIDE + TAPE_NEXT]!;
        open(item, frame.depth + 1);
      } else {
        writeKey(frame.keys[frame.index - 1]!);
        open(frame.values![frame.index - 1]!, frame.depth + 1);
      }
      continue;
    }
    if (frame.close === '') {
      // The closing bracket is the container's last unit.
      const end = records[frame.record * TAPE_STRIDE + TAPE_END]!;
      copy(end - 1, end);
    } else {
      write(frame.close);
    }
    stack.pop();
  }
  flush();

  if (!checkSurrogates && !isWellFormed(out)) return LONE_SURROGATE;
  let bytes = utf8ByteLength(out);
  if (standIn && owns > 0) {
    // Each stand-in is one UTF-8 byte; "…" is three.
    bytes += 2 * owns;
    const parts = out.split(OWN);
    if (parts.length - 1 !== owns) return OWN_IN_DATA;
    // join builds a flat string, where replaceAll would leave a rope for the caller to flatten.
    out = parts.join('…');
  }
  const contentLost =
    elisions.arraysSampled +
      elisions.objectsSampled +
      elisions.stringsElided +
      elisions.containersElided >
    0;
  return { text: out, bytes, contentLost, elisions, losslessNumbers };
}
