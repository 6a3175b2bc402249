/** Node kinds of a `JsonInventory`. */
export const NODE_OBJECT = 1;
export const NODE_ARRAY = 2;
export const NODE_STRING = 3;
export const NODE_SCALAR = 4;

/**
 * Every value of a JSON document as flat, pre-ordered arrays. Node 0 is the root; a node's
 * subtree is the index range `[i, next[i])`, so children are walked with
 * `c = i + 1; c < next[i]; c = next[c]`. Offsets index the source text (UTF-16 units); sizes are
 * UTF-8 bytes of the minified form, so slices keep numbers and strings verbatim.
 */
export interface JsonInventory {
  /** The source text. */
  text: string;
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
  /** Offset of a member's key string (quotes included), -1 for array items and the root. */
  keyStart: Int32Array;
  /** UTF-8 bytes of a member's key string, quotes included; 0 for items. */
  keyBytes: Int32Array;
  /** Offset of the value. */
  start: Int32Array;
  /** Offset just past the value. */
  end: Int32Array;
  /** Minified UTF-8 bytes of the value. */
  valueBytes: Int32Array;
  /** Minified UTF-8 bytes of the unit: `"key":value` for a member, the value for an item. */
  unitBytes: Int32Array;
  /** Position among the parent's children. */
  childIndex: Int32Array;
}

function isEscaped(text: string, quote: number): boolean {
  let k = quote - 1;
  while (text.charCodeAt(k) === 0x5c) k--;
  return (quote - 1 - k) % 2 === 1;
}

/** Offset of the quote closing the string that opens at `open`. */
export function stringEnd(text: string, open: number): number {
  let close = text.indexOf('"', open + 1);
  while (close > 0 && isEscaped(text, close)) close = text.indexOf('"', close + 1);
  return close < 0 ? text.length - 1 : close;
}

const NON_ASCII_RUN = /[^\x00-\x7f]+/g;

/**
 * Extra UTF-8 bytes (beyond one per UTF-16 unit) before each offset, for offsets queried in
 * increasing order and never inside a non-ASCII run (structural characters are ASCII).
 */
class ExtraBytes {
  private readonly starts: number[] = [];
  private readonly extras: number[] = [];
  private index = 0;
  private total = 0;

  constructor(text: string, hasNonAscii: boolean) {
    if (!hasNonAscii) return;
    NON_ASCII_RUN.lastIndex = 0;
    for (let m = NON_ASCII_RUN.exec(text); m; m = NON_ASCII_RUN.exec(text)) {
      this.starts.push(m.index);
      this.extras.push(Buffer.byteLength(m[0], 'utf8') - m[0].length);
    }
  }

  before(offset: number): number {
    while (this.index < this.starts.length && this.starts[this.index]! < offset) {
      this.total += this.extras[this.index++]!;
    }
    return this.total;
  }
}

class NodeTable {
  capacity: number;
  count = 0;
  kind: Uint8Array;
  parent: Int32Array;
  next: Int32Array;
  keyStart: Int32Array;
  keyBytes: Int32Array;
  start: Int32Array;
  end: Int32Array;
  valueBytes: Int32Array;
  unitBytes: Int32Array;
  childIndex: Int32Array;

  constructor(
    capacity: number,
    readonly maxNodes: number,
  ) {
    this.capacity = capacity;
    this.kind = new Uint8Array(capacity);
    this.parent = new Int32Array(capacity);
    this.next = new Int32Array(capacity);
    this.keyStart = new Int32Array(capacity);
    this.keyBytes = new Int32Array(capacity);
    this.start = new Int32Array(capacity);
    this.end = new Int32Array(capacity);
    this.valueBytes = new Int32Array(capacity);
    this.unitBytes = new Int32Array(capacity);
    this.childIndex = new Int32Array(capacity);
  }

  grow(): void {
    const size = Math.min(this.maxNodes, this.capacity * 2);
    const widen = <T extends Int32Array | Uint8Array>(array: T, wider: T): T => {
      wider.set(array);
      return wider;
    };
    this.kind = widen(this.kind, new Uint8Array(size));
    this.parent = widen(this.parent, new Int32Array(size));
    this.next = widen(this.next, new Int32Array(size));
    this.keyStart = widen(this.keyStart, new Int32Array(size));
    this.keyBytes = widen(this.keyBytes, new Int32Array(size));
    this.start = widen(this.start, new Int32Array(size));
    this.end = widen(this.end, new Int32Array(size));
    this.valueBytes = widen(this.valueBytes, new Int32Array(size));
    this.unitBytes = widen(this.unitBytes, new Int32Array(size));
    this.childIndex = widen(this.childIndex, new Int32Array(size));
    this.capacity = size;
  }

  add(
    kind: number,
    parent: number,
    keyStart: number,
    keyBytes: number,
    start: number,
    childIndex: number,
  ): number {
    if (this.count >= this.capacity) this.grow();
    const id = this.count++;
    this.kind[id] = kind;
    this.parent[id] = parent;
    this.keyStart[id] = keyStart;
    this.keyBytes[id] = keyStart >= 0 ? keyBytes : 0;
    this.start[id] = start;
    this.childIndex[id] = childIndex;
    return id;
  }

  /** Closes node `id`: its end offset and minified size, key included. */
  close(id: number, end: number, valueBytes: number): void {
    this.end[id] = end;
    this.valueBytes[id] = valueBytes;
    const key = this.keyBytes[id]!;
    this.unitBytes[id] = key > 0 ? valueBytes + key + 1 : valueBytes;
    this.next[id] = this.count;
  }
}

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Inventories `text`, which must hold valid JSON (validated beforehand). One iterative pass, no
 * recursion, so nesting depth is bounded by memory only.
 */
export function scanJson(text: string, maxNodes: number): JsonInventory {
  const table = new NodeTable(Math.max(64, Math.min(maxNodes, text.length >>> 4)), maxNodes);
  const extra = new ExtraBytes(text, NON_ASCII.test(text));
  // Open containers: node id (-1 when not recorded), whether an object, children so far, and
  // the minified byte offset where each opened.
  const stackIds: number[] = [];
  const stackObject: boolean[] = [];
  const stackChildren: number[] = [];
  const stackOffset: number[] = [];
  let totalValues = 0;
  let truncated = false;
  let sawWhitespace = false;
  let expectKey = false;
  let pendingKey = -1;
  let pendingKeyBytes = 0;
  // Minified offset in UTF-16 units; plus `extra.before(i)` it is a byte offset.
  let minified = 0;

  const length = text.length;
  let i = 0;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      sawWhitespace = true;
      i++;
      continue;
    }
    if (c === 0x2c) {
      expectKey = stackObject[stackObject.length - 1] === true;
      i++;
      minified++;
      continue;
    }
    if (c === 0x3a) {
      i++;
      minified++;
      continue;
    }
    if (c === 0x7d || c === 0x5d) {
      const id = stackIds.pop()!;
      stackObject.pop();
      stackChildren.pop();
      const opened = stackOffset.pop()!;
      i++;
      minified++;
      if (id >= 0) table.close(id, i, minified + extra.before(i) - opened);
      expectKey = false;
      continue;
    }
    let stop: number;
    if (c === 0x22) {
      stop = stringEnd(text, i) + 1;
      if (expectKey) {
        pendingKey = i;
        const before = extra.before(i);
        pendingKeyBytes = stop - i + extra.before(stop) - before;
        expectKey = false;
        minified += stop - i;
        i = stop;
        continue;
      }
    } else if (c === 0x7b || c === 0x5b) {
      stop = -1;
    } else {
      stop = i + 1;
      while (stop < length) {
        const d = text.charCodeAt(stop);
        if (d === 0x2c || d === 0x7d || d === 0x5d || d <= 0x20) break;
        stop++;
      }
    }
    // A value starts at `i`.
    const level = stackIds.length;
    const parentId = level > 0 ? stackIds[level - 1]! : -1;
    let position = 0;
    if (level > 0) {
      totalValues++;
      position = stackChildren[level - 1]!;
      stackChildren[level - 1] = position + 1;
    }
    let id = -1;
    if ((level === 0 || parentId >= 0) && table.count < maxNodes) {
      const kind =
        c === 0x22 ? NODE_STRING : c === 0x7b ? NODE_OBJECT : c === 0x5b ? NODE_ARRAY : NODE_SCALAR;
      id = table.add(kind, parentId, pendingKey, pendingKeyBytes, i, position);
    } else {
      truncated = true;
    }
    pendingKey = -1;
    if (stop < 0) {
      stackIds.push(id);
      stackObject.push(c === 0x7b);
      stackChildren.push(0);
      stackOffset.push(minified + extra.before(i));
      expectKey = c === 0x7b;
      i++;
      minified++;
      continue;
    }
    if (id >= 0) {
      let bytes = stop - i;
      if (c === 0x22) {
        const before = extra.before(i);
        bytes += extra.before(stop) - before;
      }
      table.close(id, stop, bytes);
    }
    minified += stop - i;
    i = stop;
  }

  return {
    text,
    count: table.count,
    totalValues,
    truncated,
    minified: !sawWhitespace,
    kind: table.kind,
    parent: table.parent,
    next: table.next,
    keyStart: table.keyStart,
    keyBytes: table.keyBytes,
    start: table.start,
    end: table.end,
    valueBytes: table.valueBytes,
    unitBytes: table.unitBytes,
    childIndex: table.childIndex,
  };
}

/** Offset where node `i` starts as a unit (its key for a member). */
export function unitStart(inventory: JsonInventory, i: number): number {
  const key = inventory.keyStart[i]!;
  return key >= 0 ? key : inventory.start[i]!;
}

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** `text[from, to)` without the whitespace outside strings. */
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
