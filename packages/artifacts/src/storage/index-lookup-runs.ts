import { createHash, randomBytes } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArtifactFileSystem } from './artifact-file-system.js';
import { openRegularFile } from './open-no-follow.js';

/**
 * The lookup sidecar of a store's index: sorted runs of key hashes pointing at index lines, so a
 * process that opens a large index finds a record by id, file name or operation id by reading a
 * few small blocks instead of the whole file. The index stays the only truth: every pointer is
 * checked against the line it names, and a run whose index bytes changed is ignored.
 *
 * Layout of `<store>/index.lookup/<from>-<to>.run`, covering the index lines that start in the
 * byte range [from, to) (`to` just after a newline):
 *   header (64 bytes): magic, from, to, entry count, SHA-256 of the index bytes before `to`
 *   fences (8 bytes per block of 64 entries): the hash of each block's first entry
 *   entries (16 bytes each, sorted by hash then offset): key hash (8), line offset (5), length (3)
 */
export const LOOKUP_DIR = 'index.lookup';

const MAGIC = Buffer.from('cmplkp1\n');
const HEADER_BYTES = 64;
const ENTRY_BYTES = 16;
const BLOCK_ENTRIES = 64;
/** Index bytes before `to` whose hash a run keeps, to notice an index replaced or rewritten. */
const CHECK_BYTES = 64;
/** Offsets and lengths fit 5 and 3 bytes; an index past 1 TiB gets no sidecar. */
const MAX_OFFSET = 2 ** 40 - 1;
const MAX_LENGTH = 2 ** 24 - 1;
const RUN_NAME = /^(\d{1,15})-(\d{1,15})\.run$/;
/** A temp file older than this was left by a crashed writer. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * What a key names: an artifact id, a file its records name, an operation id, or a file a
 * removal line names.
 */
export type LookupKeyKind = 'id' | 'file' | 'op' | 'removed';

const KIND_TAG: Record<LookupKeyKind, number> = { id: 0x69, file: 0x66, op: 0x6f, removed: 0x72 };

/** A 64-bit key hash as two unsigned 32-bit halves, compared high half first. */
export interface KeyHash {
  hi: number;
  lo: number;
}

/**
 * A 64-bit hash (cyrb53's two lanes, kept whole) of the kind and the key's UTF-16 units. It
 * is part of the file format: runs written with one hash cannot be read with another, so a
 * change needs a new magic. A collision only costs one line read and discarded.
 */
export function keyHash(kind: LookupKeyKind, key: string): KeyHash {
  const tag = KIND_TAG[kind];
  let h1 = 0xdeadbeef ^ tag;
  let h2 = 0x41c6ce57 ^ tag;
  for (let i = 0; i < key.length; i++) {
    const unit = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ unit, 2654435761);
    h2 = Math.imul(h2 ^ unit, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return { hi: h2 >>> 0, lo: h1 >>> 0 };
}

const compareHash = (aHi: number, aLo: number, bHi: number, bLo: number) =>
  aHi !== bHi ? (aHi < bHi ? -1 : 1) : aLo !== bLo ? (aLo < bLo ? -1 : 1) : 0;

/** Entries of a run, packed: key hash halves, line offset and line length (newline left out). */
export interface LookupEntries {
  readonly count: number;
  push(hash: KeyHash, offset: number, length: number): void;
  /** Appends every entry of `other`. */
  append(other: LookupEntries): void;
  /** Entry `at`. */
  get(at: number): KeyHash & { offset: number; length: number };
  /** Positions of the entries in hash, then offset, order. */
  sorted(): Uint32Array;
}

/** An empty `LookupEntries`, growing as entries are pushed (a few bytes each, no object each). */
export function createLookupEntries(): LookupEntries {
  let capacity = 1024;
  let hi = new Uint32Array(capacity);
  let lo = new Uint32Array(capacity);
  let offsets = new Float64Array(capacity);
  let lengths = new Uint32Array(capacity);
  let count = 0;
  const grow = () => {
    capacity *= 2;
    const more = <T extends Uint32Array | Float64Array>(from: T, to: T): T => {
      to.set(from);
      return to;
    };
    hi = more(hi, new Uint32Array(capacity));
    lo = more(lo, new Uint32Array(capacity));
    offsets = more(offsets, new Float64Array(capacity));
    lengths = more(lengths, new Uint32Array(capacity));
  };
  const entries: LookupEntries = {
    get count() {
      return count;
    },
    push(hash, offset, length) {
      if (count === capacity) grow();
      hi[count] = hash.hi;
      lo[count] = hash.lo;
      offsets[count] = offset;
      lengths[count] = length;
      count++;
    },
    append(other) {
      for (let i = 0; i < other.count; i++) {
        const entry = other.get(i);
        entries.push(entry, entry.offset, entry.length);
      }
    },
    get(at) {
      return { hi: hi[at]!, lo: lo[at]!, offset: offsets[at]!, length: lengths[at]! };
    },
    sorted() {
      const order = new Uint32Array(count);
      for (let i = 0; i < count; i++) order[i] = i;
      return order.sort(
        (a, b) => compareHash(hi[a]!, lo[a]!, hi[b]!, lo[b]!) || offsets[a]! - offsets[b]!,
      );
    },
  };
  return entries;
}

/** A run opened for searching. */
export interface LookupRun {
  readonly name: string;
  readonly from: number;
  readonly to: number;
  readonly count: number;
  /** Offsets and lengths of the index lines with a key whose hash is `hash`. */
  find(hash: KeyHash): Promise<{ offset: number; length: number }[]>;
  /** Every entry (for a merge). */
  entries(): Promise<LookupEntries>;
  close(): Promise<void>;
}

async function readExactly(handle: FileHandle, length: number, position: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done === length ? buffer : buffer.subarray(0, done);
}

/** SHA-256 of the index bytes [max(from, to - 64), to): what a run checks the index against. */
async function indexCheck(index: FileHandle, from: number, to: number): Promise<Buffer> {
  const start = Math.max(from, to - CHECK_BYTES);
  const bytes = await readExactly(index, to - start, start);
  return createHash('sha256').update(bytes).digest();
}

const hashAt = (buffer: Buffer, at: number): KeyHash => ({
  hi: buffer.readUInt32BE(at),
  lo: buffer.readUInt32BE(at + 4),
});

/** Why a run cannot be used: a `stale` run describes other bytes and can be removed. */
type RunProblem = 'missing' | 'stale';

async function openRun(
  lookupDir: string,
  name: string,
  from: number,
  to: number,
  index: FileHandle,
): Promise<LookupRun | RunProblem> {
  let handle: FileHandle | undefined;
  try {
    handle = await openRegularFile(join(lookupDir, name));
  } catch {
    return 'missing';
  }
  if (!handle) return 'missing';
  try {
    const size = (await handle.stat()).size;
    const header = await readExactly(handle, HEADER_BYTES, 0);
    if (header.length < HEADER_BYTES || !header.subarray(0, 8).equals(MAGIC)) return 'stale';
    const count = header.readUIntBE(26, 6);
    const blocks = Math.ceil(count / BLOCK_ENTRIES);
    if (
      header.readUIntBE(10, 6) !== from ||
      header.readUIntBE(18, 6) !== to ||
      size !== HEADER_BYTES + blocks * 8 + count * ENTRY_BYTES ||
      !header.subarray(32, 64).equals(await indexCheck(index, from, to))
    ) {
      return 'stale';
    }
    const fences = await readExactly(handle, blocks * 8, HEADER_BYTES);
    if (fences.length !== blocks * 8) return 'stale';
    const entriesAt = HEADER_BYTES + blocks * 8;
    const fence = (block: number) => hashAt(fences, block * 8);
    const opened = handle;
    handle = undefined;
    return {
      name,
      from,
      to,
      count,
      async find(hash) {
        if (count === 0) return [];
        const below = (block: number) => {
          const first = fence(block);
          return compareHash(first.hi, first.lo, hash.hi, hash.lo);
        };
        // Equal hashes may start at the end of the last block whose first hash is below, and
        // run on through the blocks that start with it.
        let low = 0;
        let high = blocks - 1;
        while (low < high) {
          const middle = Math.ceil((low + high) / 2);
          if (below(middle) < 0) low = middle;
          else high = middle - 1;
        }
        let last = low;
        while (last + 1 < blocks && below(last + 1) <= 0) last++;
        const first = low * BLOCK_ENTRIES;
        const end = Math.min(count, (last + 1) * BLOCK_ENTRIES);
        const block = await readExactly(
          opened,
          (end - first) * ENTRY_BYTES,
          entriesAt + first * ENTRY_BYTES,
        );
        const found: { offset: number; length: number }[] = [];
        for (let at = 0; at + ENTRY_BYTES <= block.length; at += ENTRY_BYTES) {
          const entry = hashAt(block, at);
          const order = compareHash(entry.hi, entry.lo, hash.hi, hash.lo);
          if (order > 0) break;
          if (order === 0)
            found.push({
              offset: block.readUIntBE(at + 8, 5),
              length: block.readUIntBE(at + 13, 3),
            });
        }
        return found;
      },
      async entries() {
        const block = await readExactly(opened, count * ENTRY_BYTES, entriesAt);
        const all = createLookupEntries();
        for (let at = 0; at + ENTRY_BYTES <= block.length; at += ENTRY_BYTES) {
          all.push(hashAt(block, at), block.readUIntBE(at + 8, 5), block.readUIntBE(at + 13, 3));
        }
        return all;
      },
      close: () => opened.close(),
    };
  } catch {
    return 'missing';
  } finally {
    await handle?.close().catch(() => {});
  }
}

/** The runs covering the index from its start, and the first byte they do not cover. */
export interface LookupRuns {
  runs: LookupRun[];
  covered: number;
  close(): Promise<void>;
}

/**
 * Opens the chain of runs that covers the index `[0, covered)` (each run starting where the one
 * before ends, or inside it), checking each against the index. A stale run (the index was
 * replaced, truncated or rewritten) is never used, and removed when `fileSystem` is given. A
 * missing or unreadable sidecar covers nothing.
 */
export async function openLookupRuns(
  dir: string,
  index: FileHandle,
  indexSize: number,
  fileSystem?: ArtifactFileSystem,
): Promise<LookupRuns> {
  const lookupDir = join(dir, LOOKUP_DIR);
  let names: string[] = [];
  try {
    // A symbolic link in its place is no sidecar of this store.
    if ((await lstat(lookupDir)).isDirectory()) names = await readdir(lookupDir);
  } catch {
    names = [];
  }
  const spans: { name: string; from: number; to: number }[] = [];
  for (const name of names) {
    const match = RUN_NAME.exec(name);
    const from = Number(match?.[1]);
    const to = Number(match?.[2]);
    if (match && from < to && to <= indexSize) spans.push({ name, from, to });
  }
  const runs: LookupRun[] = [];
  const refused = new Set<string>();
  let covered = 0;
  for (;;) {
    let best: (typeof spans)[number] | undefined;
    for (const span of spans) {
      if (refused.has(span.name) || span.from > covered || span.to <= covered) continue;
      if (!best || span.to > best.to) best = span;
    }
    if (!best) break;
    const run = await openRun(lookupDir, best.name, best.from, best.to, index);
    if (typeof run === 'string') {
      refused.add(best.name);
      if (run === 'stale' && fileSystem)
        await fileSystem.unlink(join(lookupDir, best.name)).catch(() => {});
      continue;
    }
    runs.push(run);
    covered = run.to;
  }
  return {
    runs,
    covered,
    async close() {
      await Promise.all(runs.map((run) => run.close().catch(() => {})));
    },
  };
}

/**
 * Writes the run of `entries` for the index lines in [from, to) through a synced temp file
 * renamed into place, so a run is whole or absent. Resolves to its name.
 */
export async function writeLookupRun(
  dir: string,
  index: FileHandle,
  from: number,
  to: number,
  entries: LookupEntries,
  fileSystem: ArtifactFileSystem,
): Promise<string> {
  if (to > MAX_OFFSET) throw new RangeError('the index is too large for a lookup sidecar');
  const lookupDir = join(dir, LOOKUP_DIR);
  const order = [...entries.sorted()].filter((at) => entries.get(at).length <= MAX_LENGTH);
  const count = order.length;
  const blocks = Math.ceil(count / BLOCK_ENTRIES);
  const data = Buffer.alloc(HEADER_BYTES + blocks * 8 + count * ENTRY_BYTES);
  MAGIC.copy(data, 0);
  data.writeUIntBE(from, 10, 6);
  data.writeUIntBE(to, 18, 6);
  data.writeUIntBE(count, 26, 6);
  (await indexCheck(index, from, to)).copy(data, 32);
  const entriesAt = HEADER_BYTES + blocks * 8;
  order.forEach((position, i) => {
    const entry = entries.get(position);
    const at = entriesAt + i * ENTRY_BYTES;
    data.writeUInt32BE(entry.hi, at);
    data.writeUInt32BE(entry.lo, at + 4);
    data.writeUIntBE(entry.offset, at + 8, 5);
    data.writeUIntBE(entry.length, at + 13, 3);
    if (i % BLOCK_ENTRIES === 0)
      data.copy(data, HEADER_BYTES + (i / BLOCK_ENTRIES) * 8, at, at + 8);
  });
  const name = `${from}-${to}.run`;
  const temp = join(lookupDir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  await fileSystem.mkdir(lookupDir);
  if (!(await lstat(lookupDir)).isDirectory()) {
    throw new Error(`${LOOKUP_DIR} is not a directory of its own (a symbolic link?)`);
  }
  const handle = await fileSystem.openForWrite(temp);
  try {
    try {
      await handle.write(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    const onDisk = await fileSystem.size?.(temp);
    if (onDisk !== undefined && onDisk !== data.length)
      throw new Error('short write of a lookup run');
    await fileSystem.rename(temp, join(lookupDir, name));
  } catch (error) {
    await fileSystem.unlink(temp).catch(() => {});
    throw error;
  }
  return name;
}

/**
 * Keeps the chain short: while the last run covers more than half as many index bytes as the
 * one before it, the two are merged, so each entry is rewritten about log2(index / tail) times
 * in all. Then runs inside a longer one, and temp files a crashed writer left, are removed.
 * Best effort: what a failure leaves still answers correctly.
 */
export async function compactLookupRuns(
  dir: string,
  index: FileHandle,
  indexSize: number,
  fileSystem: ArtifactFileSystem,
  now: number = Date.now(),
): Promise<void> {
  const lookupDir = join(dir, LOOKUP_DIR);
  for (let rounds = 0; rounds < 64; rounds++) {
    const chain = await openLookupRuns(dir, index, indexSize, fileSystem);
    try {
      const [previous, last] = chain.runs.slice(-2);
      if (!previous || !last || (last.to - last.from) * 2 <= previous.to - previous.from) break;
      const merged = await previous.entries();
      merged.append(await last.entries());
      await writeLookupRun(dir, index, previous.from, last.to, merged, fileSystem);
    } finally {
      await chain.close();
    }
  }
  const chain = await openLookupRuns(dir, index, indexSize);
  await chain.close();
  let names: string[];
  try {
    names = await readdir(lookupDir);
  } catch {
    return;
  }
  for (const name of names) {
    const match = RUN_NAME.exec(name);
    if (match) {
      const from = Number(match[1]);
      const to = Number(match[2]);
      const inside = chain.runs.some(
        (run) => run.name !== name && run.from <= from && to <= run.to,
      );
      if (inside) await fileSystem.unlink(join(lookupDir, name)).catch(() => {});
    } else if (name.endsWith('.tmp')) {
      const info = await lstat(join(lookupDir, name)).catch(() => undefined);
      if (info?.isFile() && now - info.mtimeMs > STALE_TEMP_MS)
        await fileSystem.unlink(join(lookupDir, name)).catch(() => {});
    }
  }
}
