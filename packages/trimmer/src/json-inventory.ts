/** Node kinds of a `JsonInventory`. */
export const NODE_OBJECT = 1;
export const NODE_ARRAY = 2;
export const NODE_STRING = 3;
export const NODE_SCALAR = 4;

/**
 * Every value of a JSON document as flat, pre-ordered arrays over its UTF-8 bytes. Node 0 is the
 * root; a node's subtree is the index range `[i, next[i])`, so children are walked with
 * `c = i + 1; c < next[i]; c = next[c]`. Offsets index `bytes`, the source with one character
 * per UTF-8 byte, so lengths are byte counts and slices keep numbers and strings verbatim.
 */
export interface JsonInventory {
  /** The source, one character per UTF-8 byte (latin1 view of the UTF-8 encoding). */
  bytes: string;
  /** Recorded nodes. */
  count: number;
  /** Values in the document other than the root, recorded or not. */
  totalValues: number;
  /** Nodes past `maxNodes` are counted but not recorded. */
  truncated: boolean;
  /** The source has no whitespace outside strings, so raw slices are already minified. */
  minified: boolean;
  kind: Uint8Array;
  parent: Int32Array;
  next: Int32Array;
  depth: Int32Array;
  /** Raw offset of a member's key string (quotes included), -1 for array items and the root. */
  keyStart: Int32Array;
  /** Bytes of a member's key string, quotes included. */
  keyLength: Int32Array;
  /** Raw offset of the value. */
  start: Int32Array;
  /** Raw offset just past the value. */
  end: Int32Array;
  /** Minified bytes of the value. */
  valueBytes: Int32Array;
  /** Position among the parent's children. */
  childIndex: Int32Array;
}

function isEscaped(bytes: string, quote: number): boolean {
  let k = quote - 1;
  while (bytes.charCodeAt(k) === 0x5c) k--;
  return (quote - 1 - k) % 2 === 1;
}

/** Offset of the quote closing the string that opens at `open`. */
export function stringEnd(bytes: string, open: number): number {
  let close = bytes.indexOf('"', open + 1);
  while (close > 0 && isEscaped(bytes, close)) close = bytes.indexOf('"', close + 1);
  return close < 0 ? bytes.length - 1 : close;
}

/**
 * Inventories `bytes`, which must hold valid JSON (validated beforehand). One iterative pass, no
 * recursion, so nesting depth is bounded by memory only.
 */
export function scanJson(bytes: string, maxNodes: number): JsonInventory {
  let capacity = Math.max(64, Math.min(maxNodes, bytes.length >>> 3));
  let kind = new Uint8Array(capacity);
  let parent = new Int32Array(capacity);
  let next = new Int32Array(capacity);
  let depth = new Int32Array(capacity);
  let keyStart = new Int32Array(capacity);
  let keyLength = new Int32Array(capacity);
  let start = new Int32Array(capacity);
  let end = new Int32Array(capacity);
  let valueBytes = new Int32Array(capacity);
  let childIndex = new Int32Array(capacity);
  const grow = (): void => {
    const size = Math.min(maxNodes, capacity * 2);
    const widen = <T extends Int32Array | Uint8Array>(array: T, make: (n: number) => T): T => {
      const wider = make(size);
      wider.set(array);
      return wider;
    };
    kind = widen(kind, (n) => new Uint8Array(n));
    parent = widen(parent, (n) => new Int32Array(n));
    next = widen(next, (n) => new Int32Array(n));
    depth = widen(depth, (n) => new Int32Array(n));
    keyStart = widen(keyStart, (n) => new Int32Array(n));
    keyLength = widen(keyLength, (n) => new Int32Array(n));
    start = widen(start, (n) => new Int32Array(n));
    end = widen(end, (n) => new Int32Array(n));
    valueBytes = widen(valueBytes, (n) => new Int32Array(n));
    childIndex = widen(childIndex, (n) => new Int32Array(n));
    capacity = size;
  };

  // Open containers: node id (-1 when not recorded), whether an object, children so far.
  const stackIds: number[] = [];
  const stackObject: boolean[] = [];
  const stackChildren: number[] = [];
  let count = 0;
  let totalValues = 0;
  let truncated = false;
  let sawWhitespace = false;
  let expectKey = false;
  let pendingKey = -1;
  let pendingKeyLength = 0;
  let minifiedOffset = 0;

  // Records a value starting at raw offset `at`; returns its id or -1.
  const open = (nodeKind: number, at: number): number => {
    const level = stackIds.length;
    const parentId = level > 0 ? stackIds[level - 1]! : -1;
    let position = 0;
    if (level > 0) {
      totalValues++;
      position = stackChildren[level - 1]!;
      stackChildren[level - 1] = position + 1;
    }
    const key = pendingKey;
    const keyBytes = pendingKeyLength;
    pendingKey = -1;
    if ((level > 0 && parentId < 0) || count >= maxNodes) {
      truncated = true;
      return -1;
    }
    if (count >= capacity) grow();
    const id = count++;
    kind[id] = nodeKind;
    parent[id] = parentId;
    depth[id] = level;
    keyStart[id] = key;
    keyLength[id] = key >= 0 ? keyBytes : 0;
    start[id] = at;
    childIndex[id] = position;
    valueBytes[id] = minifiedOffset;
    return id;
  };

  const length = bytes.length;
  let i = 0;
  while (i < length) {
    const c = bytes.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      sawWhitespace = true;
      i++;
      continue;
    }
    if (c === 0x22) {
      const close = stringEnd(bytes, i);
      const size = close + 1 - i;
      if (expectKey) {
        pendingKey = i;
        pendingKeyLength = size;
        expectKey = false;
      } else {
        const id = open(NODE_STRING, i);
        if (id >= 0) {
          end[id] = close + 1;
          valueBytes[id] = size;
          next[id] = count;
        }
      }
      i = close + 1;
      minifiedOffset += size;
      continue;
    }
    if (c === 0x2c) {
      expectKey = stackObject[stackObject.length - 1] === true;
      i++;
      minifiedOffset++;
      continue;
    }
    if (c === 0x3a) {
      i++;
      minifiedOffset++;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      const id = open(c === 0x7b ? NODE_OBJECT : NODE_ARRAY, i);
      stackIds.push(id);
      stackObject.push(c === 0x7b);
      stackChildren.push(0);
      expectKey = c === 0x7b;
      i++;
      minifiedOffset++;
      continue;
    }
    if (c === 0x7d || c === 0x5d) {
      const id = stackIds.pop()!;
      stackObject.pop();
      stackChildren.pop();
      i++;
      minifiedOffset++;
      if (id >= 0) {
        end[id] = i;
        valueBytes[id] = minifiedOffset - valueBytes[id]!;
        next[id] = count;
      }
      expectKey = false;
      continue;
    }
    // A number or a literal: runs to the next delimiter.
    let stop = i + 1;
    while (stop < length) {
      const d = bytes.charCodeAt(stop);
      if (d === 0x2c || d === 0x7d || d === 0x5d || d <= 0x20) break;
      stop++;
    }
    const id = open(NODE_SCALAR, i);
    if (id >= 0) {
      end[id] = stop;
      valueBytes[id] = stop - i;
      next[id] = count;
    }
    minifiedOffset += stop - i;
    i = stop;
  }

  return {
    bytes,
    count,
    totalValues,
    truncated,
    minified: !sawWhitespace,
    kind,
    parent,
    next,
    depth,
    keyStart,
    keyLength,
    start,
    end,
    valueBytes,
    childIndex,
  };
}

/** Minified bytes of node `i` as a unit: `"key":value` for a member, the value for an item. */
export function unitBytes(inventory: JsonInventory, i: number): number {
  const keyLength = inventory.keyLength[i]!;
  return inventory.valueBytes[i]! + (keyLength > 0 ? keyLength + 1 : 0);
}

/** Raw offset where node `i` starts as a unit (its key for a member). */
export function unitStart(inventory: JsonInventory, i: number): number {
  const key = inventory.keyStart[i]!;
  return key >= 0 ? key : inventory.start[i]!;
}

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** `bytes[from, to)` without the whitespace outside strings. */
export function minifyRange(bytes: string, from: number, to: number): string {
  const parts: string[] = [];
  let run = from;
  let i = from;
  while (i < to) {
    const c = bytes.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(bytes, i) + 1;
      continue;
    }
    if (isWhitespace(c)) {
      if (run < i) parts.push(bytes.slice(run, i));
      i++;
      while (i < to && isWhitespace(bytes.charCodeAt(i))) i++;
      run = i;
      continue;
    }
    i++;
  }
  if (run < to) parts.push(bytes.slice(run, to));
  return parts.length === 1 ? parts[0]! : parts.join('');
}
