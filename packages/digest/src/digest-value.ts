import {
  type JsonArray,
  type JsonObject,
  type JsonValue,
  LosslessNumber,
  utf8ByteLength,
} from '@compaction/core';
import { countCodePoints } from './count-code-points.js';
import type { DigestCaps } from './digest-settings.js';
import { type DigestPassOptions, digestWorkPoll } from './digest-work-poll.js';
import { smallestKeys } from './smallest-keys.js';

const ELLIPSIS = 0x2026;

// One shape for arrays and objects keeps the loop's property accesses monomorphic.
interface Frame {
  /** The array or object being written. */
  container: JsonArray | JsonObject;
  /** The keys to write, in order; undefined for an array. */
  keys: string[] | undefined;
  /** Next element or key to write. */
  index: number;
  /** Elements or keys to write. */
  end: number;
  /** Nesting depth of the container (the root is 1). */
  depth: number;
  /** What closes the container: any sentinel, then `]` or `}`. */
  close: string;
}

// A data string that starts with "…" is written with the JSON escape \u2026: the parsed value is
// unchanged, but a reader can tell it from a digest's own "…" sentinels and descriptors.
function quote(text: string): string {
  const first = text.charCodeAt(0);
  // Most keys and short values need no escape; checking is about twice as fast as
  // JSON.stringify on a short string, and quote only ever sees strings up to the scalar cap.
  let plain = first !== ELLIPSIS;
  for (let i = 0; plain && i < text.length; i++) {
    const code = text.charCodeAt(i);
    plain = code >= 0x20 && code !== 0x22 && code !== 0x5c && (code < 0xd800 || code > 0xdfff);
  }
  if (plain) return `"${text}"`;
  const json = JSON.stringify(text);
  return first === ELLIPSIS ? `"\\u2026${json.slice(2)}` : json;
}

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
 * One iterative pass over the kept part only: elided subtrees are never visited or serialized,
 * and no nesting depth can overflow the call stack. `digest(text)` reads a JSON text's tape
 * instead (`digestTape`, the same bytes) and comes here only where WebAssembly is unavailable.
 */
export function digestValue(
  root: JsonValue,
  caps: DigestCaps,
  options: DigestPassOptions = {},
): ValueDigest {
  const { arraySample, scalarMax, maxKeys, maxDepth } = caps;
  const poll = digestWorkPoll(options.shouldStop);
  const elisions: DigestElisions = {
    arraysSampled: 0,
    objectsSampled: 0,
    stringsElided: 0,
    containersElided: 0,
  };
  let out = '';
  let losslessNumbers = 0;
  const stack: Frame[] = [];

  // The text of a scalar or a descriptor, or the opening bracket of a container whose frame it
  // pushes.
  const open = (value: JsonValue, depth: number): string => {
    switch (typeof value) {
      case 'string': {
        // Code points never outnumber UTF-16 units, so short strings need no count.
        if (value.length <= scalarMax) return quote(value);
        const chars = countCodePoints(value);
        if (chars <= scalarMax) return quote(value);
        elisions.stringsElided++;
        return `"…(${chars} chars)"`;
      }
      case 'number':
        return Number.isFinite(value) ? String(value) : 'null';
      case 'boolean':
        return value ? 'true' : 'false';
    }
    if (value === null || value === undefined) {
      return 'null';
    }
    if (LosslessNumber.isInstance(value)) {
      losslessNumbers++;
      return value.text;
    }
    if (Array.isArray(value)) {
      if (depth > maxDepth && value.length > 0) {
        elisions.containersElided++;
        return `"…(array of ${value.length})"`;
      }
      const end = Math.min(value.length, arraySample);
      let close = ']';
      if (end < value.length) {
        elisions.arraysSampled++;
        close = `${end > 0 ? ',' : ''}"…${value.length - end} more of ${value.length}"]`;
      }
      stack.push({ container: value, keys: undefined, index: 0, end, depth, close });
      return '[';
    }
    const object = value as JsonObject;
    let keys = Object.keys(object);
    if (depth > maxDepth && keys.length > 0) {
      elisions.containersElided++;
      return `"…(object of ${keys.length} key${keys.length === 1 ? '' : 's'})"`;
    }
    let close = '}';
    if (keys.length > maxKeys) {
      elisions.objectsSampled++;
      const total = keys.length;
      keys = smallestKeys(keys, maxKeys);
      let sentinelKey = '…';
      while (Object.hasOwn(object, sentinelKey)) sentinelKey += '…';
      close = `${keys.length > 0 ? ',' : ''}"${sentinelKey}":"…${total - keys.length} more of ${total} keys"}`;
    }
    stack.push({ container: object, keys, index: 0, end: keys.length, depth, close });
    return '{';
  };

  out += open(root, 1);
  while (stack.length > 0) {
    poll?.();
    const frame = stack[stack.length - 1]!;
    if (frame.index < frame.end) {
      const index = frame.index++;
      const separator = index > 0 ? ',' : '';
      if (frame.keys === undefined) {
        out += separator + open((frame.container as JsonArray)[index]!, frame.depth + 1);
      } else {
        const key = frame.keys[index]!;
        out += `${separator}${quote(key)}:`;
        out += open((frame.container as JsonObject)[key]!, frame.depth + 1);
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
  return { text: out, bytes: utf8ByteLength(out), contentLost, elisions, losslessNumbers };
}
