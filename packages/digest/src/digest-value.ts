import {
  type JsonArray,
  type JsonObject,
  type JsonValue,
  LosslessNumber,
  stringifyJsonLossless,
  utf8ByteLength,
} from '@compaction/core';
import { countCodePoints } from './count-code-points.js';
import type { DigestCaps } from './digest-settings.js';
import { smallestKeys } from './smallest-keys.js';
import { writeDigest } from './write-digest.js';

/** What a digest left out, by kind. All zero exactly when the digest is the whole value. */
export interface DigestElisions {
  /** Arrays cut to their head sample. */
  arraysSampled: number;
  /** Objects wider than the key cap, sampled to sorted keys. */
  objectsSampled: number;
  /** Strings replaced by a `…(N chars)` descriptor. */
  stringsElided: number;
  /** Containers below the depth cap replaced by a descriptor. */
  containersElided: number;
}

/** A digest as text plus what it left out. */
export interface ValueDigest {
  /** The digest: minified, valid JSON. */
  text: string;
  /** UTF-8 bytes of `text`. */
  bytes: number;
  /** True when anything was sampled or elided. */
  contentLost: boolean;
  /** Counts of what was left out. */
  elisions: DigestElisions;
  /**
   * Numbers in the digest written as their exact source text because a JavaScript number would
   * change them (64-bit ids, `1.0`, `-0`, `1e400`).
   */
  losslessNumbers: number;
}

const ELLIPSIS = 0x2026;
const DIGIT_ZERO = 0x30;
const DIGIT_NINE = 0x39;
// The walk recurses once per kept container level. Deeper nesting (possible only under a depth
// cap raised far above the default) goes to the iterative hand writer instead, so no input can
// overflow the call stack, here or in the native serializer.
const RECURSION_LIMIT = 500;

// The digest's own sentinels and descriptors start with "…". The tree carries DEL in its place:
// a string of Latin-1 characters only serializes faster, and counts its UTF-8 bytes faster, than
// one with "…" in it. Every DEL in the text is then swapped for "…" (two UTF-8 bytes more each).
const OWN = '\u007f';
// A data string or key that starts with "…" is written with the JSON escape \u2026, so a reader
// can tell it from the digest's own sentinels. The serializer would write "…" raw, so the tree
// carries this stand-in instead, and its JSON form is swapped for the escape afterwards.
const DATA = '\u0000\u0001';
const DATA_JSON = '"\\u0000\\u0001';
const DATA_ESCAPED = '"\\u2026';

function setOwn(object: JsonObject, key: string, value: JsonValue): void {
  // Assigning `__proto__` would set the prototype instead of adding a key.
  if (key === '__proto__') {
    Object.defineProperty(object, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    object[key] = value;
  }
}

/**
 * Digests a parsed JSON value: a structure-complete skeleton that is always valid JSON.
 *
 * - Objects keep every key in source order up to `maxKeys`; a wider object keeps its first
 *   `maxKeys` keys in sorted order and ends with a `"…": "…N more of M keys"` entry.
 * - Arrays keep their first `arraySample` elements; a longer array ends with `"…N more of M"`.
 * - Strings longer than `scalarMax` characters become `"…(N chars)"`.
 * - Containers nested deeper than `maxDepth` become `"…(object of N keys)"` / `"…(array of N)"`.
 * - Numbers, booleans and null are kept; a `LosslessNumber` is written as its source text.
 * - A kept string or key that starts with "…" is written with the escape `\u2026`.
 *
 * One pass over the kept part builds the digest as a value that shares every subtree needing no
 * change with `root`, and the native serializer writes it; elided subtrees are never visited or
 * serialized. The iterative hand writer (`writeDigest`, same bytes) takes over when the kept part
 * nests more than 500 levels deep or the data spells one of the walk's stand-ins, so no nesting
 * depth can overflow the call stack.
 */
export function digestValue(root: JsonValue, caps: DigestCaps): ValueDigest {
  const { arraySample, scalarMax, maxKeys, maxDepth } = caps;
  const elisions: DigestElisions = {
    arraysSampled: 0,
    objectsSampled: 0,
    stringsElided: 0,
    containersElided: 0,
  };
  // Stand-ins written into the tree, and whether a renamed key could not be told from a real one.
  let own = 0;
  let data = 0;
  let clash = false;
  // Set when the kept part nests deeper than the recursion may go.
  let tooDeep = false;
  let lossless = 0;

  const keyOf = (key: string, source: JsonObject): string => {
    if (key.charCodeAt(0) !== ELLIPSIS) return key;
    const written = DATA + key.slice(1);
    if (Object.hasOwn(source, written)) clash = true;
    data++;
    return written;
  };

  // The digest of `value`: `value` itself when nothing in it changes, so the serializer walks
  // the source's own objects.
  const visit = (value: JsonValue, depth: number): JsonValue => {
    if (typeof value === 'string') {
      // Code points never outnumber UTF-16 units, so short strings need no count.
      if (value.length > scalarMax) {
        const chars = countCodePoints(value);
        if (chars > scalarMax) {
          elisions.stringsElided++;
          own++;
          return `${OWN}(${chars} chars)`;
        }
      }
      if (value.charCodeAt(0) === ELLIPSIS) {
        data++;
        return DATA + value.slice(1);
      }
      return value;
    }
    if (typeof value !== 'object' || value === null) {
      // Numbers (the serializer writes non-finite ones as null, as the digest does), booleans,
      // null; undefined (possible only from a direct caller) is written as null in any position.
      return value === undefined ? null : value;
    }
    if (depth > RECURSION_LIMIT) {
      tooDeep = true;
      return null;
    }
    if (Array.isArray(value)) return visitArray(value, depth);
    // A LosslessNumber, from any copy of core, is a class instance and never a plain object:
    // checking the prototype first spares parsed objects the slower brand lookup.
    if (Object.getPrototypeOf(value) !== Object.prototype && LosslessNumber.isInstance(value)) {
      lossless++;
      // A copy from another instance of core would not serialize through this one.
      return value instanceof LosslessNumber
        ? value
        : new LosslessNumber((value as { text: string }).text);
    }
    return visitObject(value as JsonObject, depth);
  };

  const visitArray = (array: JsonArray, depth: number): JsonValue => {
    const length = array.length;
    if (depth > maxDepth && length > 0) {
      elisions.containersElided++;
      own++;
      return `${OWN}(array of ${length})`;
    }
    if (length > arraySample) {
      elisions.arraysSampled++;
      const digest: JsonArray = [];
      for (let i = 0; i < arraySample; i++) digest.push(visit(array[i]!, depth + 1));
      own++;
      digest.push(`${OWN}${length - arraySample} more of ${length}`);
      return digest;
    }
    let digest: JsonArray | undefined;
    for (let i = 0; i < length; i++) {
      const item = array[i]!;
      const kept = visit(item, depth + 1);
      if (digest !== undefined) digest.push(kept);
      else if (kept !== item) {
        digest = array.slice(0, i);
        digest.push(kept);
      }
    }
    return digest ?? array;
  };

  const visitObject = (object: JsonObject, depth: number): JsonValue => {
    const keys = Object.keys(object);
    const total = keys.length;
    if (depth > maxDepth && total > 0) {
      elisions.containersElided++;
      own++;
      return `${OWN}(object of ${total} key${total === 1 ? '' : 's'})`;
    }
    if (total > maxKeys) return visitWideObject(object, keys, depth);
    // Values in key order without a keyed lookup per key.
    const values = Object.values(object);
    let digest: JsonObject | undefined;
    // True once `digest` is rebuilt key by key because a key is renamed to its stand-in.
    let rebuilt = false;
    for (let i = 0; i < total; i++) {
      const key = keys[i]!;
      const item = values[i]!;
      const kept = visit(item, depth + 1);
      if (rebuilt) {
        setOwn(digest!, keyOf(key, object), kept);
      } else if (key.charCodeAt(0) === ELLIPSIS) {
        // A renamed key must keep its place: rebuild the keys before it in order.
        const from = digest ?? object;
        digest = {};
        for (let j = 0; j < i; j++) setOwn(digest, keys[j]!, from[keys[j]!]!);
        setOwn(digest, keyOf(key, object), kept);
        rebuilt = true;
      } else if (kept !== item) {
        // A spread copy keeps the source's key order and its fast property layout, which the
        // serializer walks much faster than an object grown key by key.
        digest ??= { ...object };
        setOwn(digest, key, kept);
      }
    }
    return digest ?? object;
  };

  const visitWideObject = (object: JsonObject, allKeys: string[], depth: number): JsonValue => {
    elisions.objectsSampled++;
    const keys = smallestKeys(allKeys, maxKeys);
    let sentinelKey = OWN;
    while (Object.hasOwn(object, sentinelKey.replaceAll(OWN, '…'))) sentinelKey += OWN;
    own += sentinelKey.length + 1;
    // A kept key spelled with DEL would be overwritten by the sentinel.
    if (Object.hasOwn(object, sentinelKey)) clash = true;
    const digest: JsonObject = {};
    let indexLike = false;
    for (const key of keys) {
      const first = key.charCodeAt(0);
      if (first >= DIGIT_ZERO && first <= DIGIT_NINE) indexLike = true;
      setOwn(digest, keyOf(key, object), visit(object[key]!, depth + 1));
    }
    setOwn(
      digest,
      sentinelKey,
      `${OWN}${allKeys.length - keys.length} more of ${allKeys.length} keys`,
    );
    // After a clash the tree is written by hand anyway, and the key order may repeat a key.
    if (!indexLike || clash) return digest;
    // A new object lists keys that look like array indices first, in numeric order, but the
    // digest lists kept keys in code-unit order; the serializer takes a proxy's own keys in the
    // order its trap lists them.
    const order = keys.map((key) => (key.charCodeAt(0) === ELLIPSIS ? DATA + key.slice(1) : key));
    order.push(sentinelKey);
    return new Proxy(digest, { ownKeys: () => order });
  };

  const tree = visit(root, 1);
  // Too deep for the recursion, or data that spells a stand-in itself (which makes the swap
  // ambiguous): the hand writer writes the same digest.
  if (tooDeep || clash) return writeDigest(root, caps);
  // Without numbers to restore, and at a depth the native serializer handles, plain
  // JSON.stringify writes the same text without a pass looking for number sentinels.
  let text = lossless > 0 ? stringifyJsonLossless(tree) : JSON.stringify(tree);
  if (data > 0) {
    const parts = text.split(DATA_JSON);
    if (parts.length - 1 !== data) return writeDigest(root, caps);
    text = parts.join(DATA_ESCAPED);
  }
  const parts = text.split(OWN);
  if (parts.length - 1 !== own) return writeDigest(root, caps);
  const bytes = utf8ByteLength(text) + 2 * own;
  // join builds a flat string, where replaceAll would leave a rope for the caller to flatten.
  if (own > 0) text = parts.join('…');

  const contentLost =
    elisions.arraysSampled +
      elisions.objectsSampled +
      elisions.stringsElided +
      elisions.containersElided >
    0;
  return { text, bytes, contentLost, elisions, losslessNumbers: lossless };
}
