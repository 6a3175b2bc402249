import { stringSequenceEnd } from './strip-terminal-escapes.js';

const ESC = 0x1b;

/** The end of unit `i` of a text (its UTF-16 `codes`) cut at `starts`, its line ending left out. */
function unitEnd(codes: Uint16Array, starts: readonly number[], i: number): number {
  const from = starts[i]!;
  let to = i + 1 < starts.length ? starts[i + 1]! : codes.length;
  if (to > from && codes[to - 1]! === 0x0a) to--;
  if (to > from && codes[to - 1]! === 0x0d) to--;
  return to;
}

/**
 * Past the terminal string sequences from `at` on (`stringSequenceEnd`): what a terminal does
 * not print does not make two lines differ.
 */
function skipToVisible(text: string, codes: Uint16Array, at: number, to: number): number {
  while (codes[at] === ESC) {
    const end = stringSequenceEnd(text, at, to);
    if (end < 0) break;
    at = end;
  }
  return at;
}

/**
 * Whether units `a` and `b` read the same, string sequences left out (`plain`: the text has no
 * escape, so the units are compared as they are).
 */
function sameUnits(
  text: string,
  codes: Uint16Array,
  starts: readonly number[],
  a: number,
  b: number,
  plain: boolean,
): boolean {
  const aEnd = unitEnd(codes, starts, a);
  const bEnd = unitEnd(codes, starts, b);
  let x = starts[a]!;
  let y = starts[b]!;
  if (plain) {
    if (aEnd - x !== bEnd - y) return false;
    while (x < aEnd && codes[x]! === codes[y]!) {
      x++;
      y++;
    }
    return x === aEnd;
  }
  for (;;) {
    x = skipToVisible(text, codes, x, aEnd);
    y = skipToVisible(text, codes, y, bEnd);
    if (x >= aEnd || y >= bEnd) return x >= aEnd && y >= bEnd;
    if (codes[x]! !== codes[y]!) return false;
    x++;
    y++;
  }
}

const UNKNOWN = 0;
const COPY = 1;
const NOT_A_COPY = 2;

// A class rather than closures made per call: V8 keeps a closure's optimised code only while the
// closure lives, so closures made per trim run unoptimised again after every collection.
/**
 * Which units of a text repeat a unit already kept, word for word: exact copies among the units
 * of `text` (its UTF-16 `codes` beside it) cut at `starts`, each unit hashed only when first
 * asked about (FNV-1a over its UTF-16 units, terminal string sequences left out), a hash match
 * confirmed by comparing the texts once per unit, so the cost is linear in the units looked at.
 */
export class UnitCopies {
  private readonly hashes: Int32Array;
  private readonly hashed: Uint8Array;
  /** Per unit, once a unit of its hash is kept: whether it reads as that unit. */
  private readonly verdict: Uint8Array;
  /**
   * The first kept unit of each hash, in an open-addressed table (a power of two, at most half
   * full): slot → unit + 1 (0 free), and the hash it holds. Hashes are 32-bit, mostly beyond a
   * small integer, so a `Map` keyed by them boxes each one.
   */
  private slotUnit = new Int32Array(256);
  private slotHash = new Int32Array(256);
  private entries = 0;
  /** The text holds no escape: no string sequence to leave out. */
  private readonly plain: boolean;

  constructor(
    private readonly text: string,
    private readonly codes: Uint16Array,
    private readonly starts: readonly number[],
  ) {
    this.hashes = new Int32Array(starts.length);
    this.hashed = new Uint8Array(starts.length);
    this.verdict = new Uint8Array(starts.length);
    this.plain = !text.includes('\x1b');
  }

  private hashOf(i: number): number {
    if (this.hashed[i] === 1) return this.hashes[i]!;
    const { codes } = this;
    let hash = 0x811c9dc5 | 0;
    const to = unitEnd(codes, this.starts, i);
    let at = this.starts[i]!;
    if (this.plain) {
      // Two units a step: the hash's chain of multiplications is what a long line waits on.
      for (; at + 1 < to; at += 2) {
        hash = Math.imul(hash ^ (codes[at]! | (codes[at + 1]! << 16)), 0x01000193);
      }
    }
    for (; at < to; at++) {
      if (!this.plain) {
        at = skipToVisible(this.text, codes, at, to);
        if (at >= to) break;
      }
      hash = Math.imul(hash ^ codes[at]!, 0x01000193);
    }
    this.hashes[i] = hash;
    this.hashed[i] = 1;
    return hash;
  }

  /** Whether unit `i` reads exactly as a unit passed to `add` (its line ending aside). */
  isCopy(i: number): boolean {
    const known = this.verdict[i]!;
    if (known !== UNKNOWN) return known === COPY;
    // A unit that reads as a copy just before it is a copy of the same kept unit (an entry's
    // own verdict is set when it is added): one comparison, no hash (a line repeated 1 500
    // times). Only tried where the two take as many units, line endings and all: units of
    // other lengths (a pretty-printed list's lines) are hashed without it.
    const { starts } = this;
    if (
      i > 0 &&
      this.verdict[i - 1] === COPY &&
      starts[i]! - starts[i - 1]! === (starts[i + 1] ?? this.codes.length) - starts[i]!
    ) {
      if (sameUnits(this.text, this.codes, starts, i - 1, i, this.plain)) {
        this.verdict[i] = COPY;
        return true;
      }
    }
    // The first unit kept of a hash stays its entry: once there is one, the verdict holds.
    const first = this.slotUnit[this.slotOf(this.hashOf(i))]! - 1;
    if (first < 0) return false;
    const copy = first !== i && sameUnits(this.text, this.codes, this.starts, first, i, this.plain);
    this.verdict[i] = copy ? COPY : NOT_A_COPY;
    return copy;
  }

  /** The slot of `hash` in the table of kept units: its own, or the free one it would take. */
  private slotOf(hash: number): number {
    const { slotUnit, slotHash } = this;
    const mask = slotUnit.length - 1;
    let slot = (hash ^ (hash >>> 15)) & mask;
    while (slotUnit[slot] !== 0 && slotHash[slot] !== hash) slot = (slot + 1) & mask;
    return slot;
  }

  /** Records unit `i` as kept. */
  add(i: number): void {
    const hash = this.hashOf(i);
    const slot = this.slotOf(hash);
    if (this.slotUnit[slot] !== 0) return;
    // The first kept unit of its hash stays its entry, never a copy.
    this.verdict[i] = NOT_A_COPY;
    this.slotUnit[slot] = i + 1;
    this.slotHash[slot] = hash;
    if (2 * ++this.entries > this.slotUnit.length) this.grow();
  }

  /** Doubles the table, every entry moved to its slot in the larger one. */
  private grow(): void {
    const { slotUnit, slotHash } = this;
    this.slotUnit = new Int32Array(2 * slotUnit.length);
    this.slotHash = new Int32Array(2 * slotUnit.length);
    for (let slot = 0; slot < slotUnit.length; slot++) {
      if (slotUnit[slot] === 0) continue;
      const to = this.slotOf(slotHash[slot]!);
      this.slotUnit[to] = slotUnit[slot]!;
      this.slotHash[to] = slotHash[slot]!;
    }
  }
}

/** Keeps the table's hidden class alive between trims, and with it the optimised code using it. */
export const UNIT_COPIES_SHAPE = new UnitCopies('', new Uint16Array(0), []);
