import {
  assertSize,
  assertString,
  type ChunkStrategy,
  type JsonObject,
  type JsonValue,
  LosslessNumber,
  parseJsonLossless,
  stringifyJsonLossless,
  truncateUtf8,
  utf8ByteLength,
} from '@compaction/core';

/** A result split for map-reduce. */
export interface ChunkedResult {
  /** The segments, in source order, each at most `maxChunkBytes` UTF-8 bytes. */
  chunks: string[];
  /** The worst boundary used anywhere in the split (`array` best, `bytes` worst). */
  strategy: ChunkStrategy;
}

/** Settings of `chunkResult`. */
export interface ChunkResultSettings {
  /** Largest segment in UTF-8 bytes. Default 131072 (the pre-filter budget). */
  maxChunkBytes?: number;
}

const STRATEGY_RANK: Readonly<Record<ChunkStrategy, number>> = {
  array: 0,
  wrapper: 1,
  lines: 2,
  bytes: 3,
};

function worse(a: ChunkStrategy, b: ChunkStrategy): ChunkStrategy {
  return STRATEGY_RANK[a] >= STRATEGY_RANK[b] ? a : b;
}

// Recursion into oversized elements stops here and falls back to bytes, so deeply nested input
// cannot exhaust the stack.
const MAX_SPLIT_DEPTH = 24;
// The wrapper is copied into every grouped chunk; past this share of a chunk it costs more than
// it tells the model, and the split falls back to lines or bytes.
const MAX_WRAPPER_SHARE = 0.25;
// An array is dominant when it holds at least this share of its object's bytes.
const DOMINANT_SHARE = 0.5;

function isValidJson(text: string): boolean {
  try {
    JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    return true;
  } catch {
    return false;
  }
}

/**
 * False when `text` is invalid JSON or an object without a dominant array, decided with the
 * native parser, which is several times faster than the lossless one that splitting needs.
 */
function mayHaveDominantArray(text: string): boolean {
  let value: JsonValue;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as JsonValue;
  } catch {
    return false;
  }
  try {
    const total = utf8ByteLength(JSON.stringify(value));
    const dominant = findDominantArray(value as JsonObject, (child) =>
      utf8ByteLength(JSON.stringify(child)),
    );
    return dominant !== undefined && dominant.bytes >= total * DOMINANT_SHARE;
  } catch {
    // Too deep for the native serializer: let the lossless path decide.
    return true;
  }
}

function isObject(value: JsonValue): value is JsonObject {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof LosslessNumber)
  );
}

function splitBytes(text: string, maxBytes: number): string[] {
  const pieces: string[] = [];
  let offset = 0;
  while (offset < text.length) {
    let piece = truncateUtf8(text.slice(offset, offset + maxBytes), maxBytes);
    // A budget smaller than one code point still has to make progress.
    if (piece === '') piece = text.slice(offset, offset + 1);
    pieces.push(piece);
    offset += piece.length;
  }
  return pieces;
}

function splitLines(text: string, maxBytes: number): ChunkedResult {
  if (!text.includes('\n')) return { chunks: splitBytes(text, maxBytes), strategy: 'bytes' };
  const chunks: string[] = [];
  let strategy: ChunkStrategy = 'lines';
  let group = '';
  let groupBytes = 0;
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline + 1;
    const line = text.slice(start, end);
    start = end;
    const bytes = utf8ByteLength(line);
    if (bytes > maxBytes) {
      if (group) chunks.push(group);
      group = '';
      groupBytes = 0;
      chunks.push(...splitBytes(line, maxBytes));
      strategy = 'bytes';
      continue;
    }
    if (groupBytes + bytes > maxBytes) {
      chunks.push(group);
      group = '';
      groupBytes = 0;
    }
    group += line;
    groupBytes += bytes;
  }
  if (group) chunks.push(group);
  return { chunks, strategy };
}

/** Path of object keys to the largest array reachable through objects only, and its size. */
function findDominantArray(
  root: JsonObject,
  measure: (value: JsonValue) => number = (value) => utf8ByteLength(stringifyJsonLossless(value)),
): { path: string[]; items: JsonValue[]; bytes: number } | undefined {
  let best: { path: string[]; items: JsonValue[]; bytes: number } | undefined;
  const queue: Array<{ node: JsonObject; path: string[] }> = [{ node: root, path: [] }];
  while (queue.length > 0) {
    const { node, path } = queue.shift()!;
    if (path.length > 8) continue;
    for (const key of Object.keys(node)) {
      const child = node[key]!;
      if (Array.isArray(child)) {
        if (child.length === 0) continue;
        const bytes = measure(child);
        if (!best || bytes > best.bytes) best = { path: [...path, key], items: child, bytes };
      } else if (isObject(child)) {
        queue.push({ node: child, path: [...path, key] });
      }
    }
  }
  return best;
}

/** A copy of `root` with the value at `path` replaced; keys such as `__proto__` stay data. */
function replaceAt(root: JsonObject, path: readonly string[], value: JsonValue): JsonObject {
  const copy: JsonObject = { ...root };
  const [head, ...rest] = path;
  const next = rest.length === 0 ? value : replaceAt(root[head!] as JsonObject, rest, value);
  Object.defineProperty(copy, head!, {
    value: next,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

interface GroupPlan {
  /** Text before and after the items of a chunk. */
  prefix: string;
  suffix: string;
  /** Replacement for the items when every element was oversized, so no chunk has an empty array. */
  sentinel?: (oversized: number) => string;
  strategy: ChunkStrategy;
}

function splitItems(
  items: readonly JsonValue[],
  plan: GroupPlan,
  maxBytes: number,
  depth: number,
): ChunkedResult {
  const chunks: string[] = [];
  let strategy = plan.strategy;
  const overhead = utf8ByteLength(plan.prefix) + utf8ByteLength(plan.suffix);
  let group: string[] = [];
  let groupBytes = overhead;
  let grouped = 0;
  let oversized = 0;
  const flush = () => {
    if (group.length === 0) return;
    chunks.push(`${plan.prefix}${group.join(',')}${plan.suffix}`);
    grouped++;
    group = [];
    groupBytes = overhead;
  };
  for (const item of items) {
    const text = stringifyJsonLossless(item);
    const bytes = utf8ByteLength(text);
    if (overhead + bytes > maxBytes) {
      flush();
      oversized++;
      const parts = splitValue(item, text, maxBytes, depth + 1);
      chunks.push(...parts.chunks);
      strategy = worse(strategy, parts.strategy);
      continue;
    }
    const separator = group.length > 0 ? 1 : 0;
    if (groupBytes + separator + bytes > maxBytes) flush();
    groupBytes += (group.length > 0 ? 1 : 0) + bytes;
    group.push(text);
  }
  flush();
  if (grouped === 0 && oversized > 0 && plan.sentinel) {
    chunks.push(`${plan.prefix}${plan.sentinel(oversized)}${plan.suffix}`);
  }
  return { chunks, strategy };
}

/**
 * Source offsets of the items of the top-level array in `text`, which must be valid JSON whose
 * value is an array starting at `open`. Slicing the source keeps every byte (and every number)
 * exactly as written, and is several times faster than parsing and re-serialising.
 */
function scanArrayItems(text: string, open: number): Array<[number, number]> {
  const items: Array<[number, number]> = [];
  let depth = 0;
  let inString = false;
  let itemStart = -1;
  for (let index = open; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++;
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) {
      inString = true;
      if (depth === 1 && itemStart < 0) itemStart = index;
    } else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth === 2 && itemStart < 0) itemStart = index;
    } else if (code === 0x5d || code === 0x7d) {
      depth--;
      if (depth === 0) {
        if (itemStart >= 0) items.push([itemStart, index]);
        break;
      }
    } else if (depth === 1) {
      if (code === 0x2c) {
        items.push([itemStart, index]);
        itemStart = -1;
      } else if (
        itemStart < 0 &&
        code !== 0x20 &&
        code !== 0x0a &&
        code !== 0x0d &&
        code !== 0x09
      ) {
        itemStart = index;
      }
    }
  }
  return items;
}

function splitSourceArray(text: string, open: number, maxBytes: number): ChunkedResult {
  const chunks: string[] = [];
  let strategy: ChunkStrategy = 'array';
  let group: string[] = [];
  let groupBytes = 2;
  const flush = () => {
    if (group.length === 0) return;
    chunks.push(`[${group.join(',')}]`);
    group = [];
    groupBytes = 2;
  };
  for (const [start, end] of scanArrayItems(text, open)) {
    const item = text.slice(start, end).trimEnd();
    const bytes = utf8ByteLength(item);
    if (bytes + 2 > maxBytes) {
      flush();
      const parsed = parseJsonLossless(item);
      const parts = parsed.ok
        ? splitValue(parsed.value, item, maxBytes, 1)
        : splitLines(item, maxBytes);
      chunks.push(...parts.chunks);
      strategy = worse(strategy, parts.strategy);
      continue;
    }
    if (groupBytes + (group.length > 0 ? 1 : 0) + bytes > maxBytes) flush();
    groupBytes += (group.length > 0 ? 1 : 0) + bytes;
    group.push(item);
  }
  flush();
  return { chunks, strategy };
}

const PLACEHOLDER = '\u0000compaction-dominant-array\u0000';

function splitObject(
  value: JsonObject,
  text: string,
  maxBytes: number,
  depth: number,
): ChunkedResult {
  const dominant = findDominantArray(value);
  const total = utf8ByteLength(text);
  if (dominant && dominant.bytes >= total * DOMINANT_SHARE) {
    const shell = stringifyJsonLossless(replaceAt(value, dominant.path, PLACEHOLDER));
    const marker = JSON.stringify(PLACEHOLDER);
    const at = shell.indexOf(marker);
    const prefix = `${shell.slice(0, at)}[`;
    const suffix = `]${shell.slice(at + marker.length)}`;
    if (utf8ByteLength(prefix) + utf8ByteLength(suffix) <= maxBytes * MAX_WRAPPER_SHARE) {
      return splitItems(
        dominant.items,
        {
          prefix,
          suffix,
          strategy: 'wrapper',
          sentinel: (count) =>
            JSON.stringify(
              `[${count} of ${dominant.items.length} elements were each too large for one segment and were analyzed in their own segments]`,
            ),
        },
        maxBytes,
        depth,
      );
    }
  }
  return splitLines(text, maxBytes);
}

function splitValue(
  value: JsonValue,
  text: string,
  maxBytes: number,
  depth: number,
): ChunkedResult {
  if (utf8ByteLength(text) <= maxBytes) return { chunks: [text], strategy: 'array' };
  if (depth > MAX_SPLIT_DEPTH) return splitLines(text, maxBytes);
  if (Array.isArray(value)) {
    return splitItems(value, { prefix: '[', suffix: ']', strategy: 'array' }, maxBytes, depth);
  }
  if (isObject(value)) return splitObject(value, text, maxBytes, depth);
  return { chunks: splitBytes(text, maxBytes), strategy: 'bytes' };
}

/**
 * Splits a result into segments of at most `maxChunkBytes` UTF-8 bytes on the best structural
 * boundary available (seed 002 §5.2): the items of a top-level JSON array; else the dominant
 * array inside a JSON object, with the wrapper and sibling fields copied into every segment;
 * else lines; else bytes. An element too big for one segment is split recursively into its
 * own segments, never truncated; when every element of a wrapped array is that big, one more
 * segment carries the wrapper with a sentinel string in place of the array, so the array never
 * reads as empty. JSON numbers keep their exact source text.
 */
export function chunkResult(text: string, settings: ChunkResultSettings = {}): ChunkedResult {
  assertString(text, 'text');
  const maxBytes = assertSize(settings.maxChunkBytes ?? 131_072, 'maxChunkBytes', { min: 64 });
  if (text === '') return { chunks: [], strategy: 'array' };
  const bytes = utf8ByteLength(text);
  const open = text.search(/[^\s\uFEFF]/);
  if (bytes > maxBytes && open >= 0 && text.charCodeAt(open) === 0x5b && isValidJson(text)) {
    return splitSourceArray(text, open, maxBytes);
  }
  if (
    bytes > maxBytes &&
    open >= 0 &&
    text.charCodeAt(open) === 0x7b &&
    !mayHaveDominantArray(text)
  ) {
    return splitLines(text, maxBytes);
  }
  const parsed = parseJsonLossless(text);
  if (
    parsed.ok &&
    typeof parsed.value === 'object' &&
    parsed.value !== null &&
    !(parsed.value instanceof LosslessNumber)
  ) {
    if (utf8ByteLength(text) <= maxBytes) {
      return { chunks: [text], strategy: Array.isArray(parsed.value) ? 'array' : 'wrapper' };
    }
    if (Array.isArray(parsed.value)) {
      return splitItems(parsed.value, { prefix: '[', suffix: ']', strategy: 'array' }, maxBytes, 0);
    }
    const compact = stringifyJsonLossless(parsed.value);
    const split = splitObject(parsed.value, compact, maxBytes, 0);
    // Without a usable dominant array, the source's own line breaks beat the minified form's.
    return split.strategy === 'lines' || split.strategy === 'bytes'
      ? splitLines(text, maxBytes)
      : split;
  }
  if (utf8ByteLength(text) <= maxBytes) return { chunks: [text], strategy: 'lines' };
  return splitLines(text, maxBytes);
}
