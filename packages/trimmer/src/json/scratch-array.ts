import { createIdleRelease } from '@compaction/core/internal';

/** Entries of a scratch array kept between calls for good. */
const KEEP_MAX_ENTRIES = 1 << 20;
/**
 * A bigger array (a text of more than half a million units, a document of more than a million
 * values) is kept only until no call has given one back for this long: trims of big inputs that
 * follow each other skip allocating, zeroing and collecting it (about 0.8 ns a unit, 5–10% of a
 * trim of a 1 MB log), and a process that goes quiet holds it no longer than this.
 */
const BIG_IDLE_MS = 1000;

/** Scratch arrays holding a big spare, dropped together once idle (one timer for all). */
const bigHolders = new Set<ScratchArray<Int32Array | Uint8Array>>();
const bigRelease = createIdleRelease(BIG_IDLE_MS, () => {
  for (const holder of bigHolders) holder.dropBig();
  bigHolders.clear();
});

/**
 * A typed array lent to one call at a time and kept for the next one. A fresh typed array is
 * allocated outside the heap, zeroed and later collected (a trim of a 600 KB list made 77 of
 * them; keeping the biggest working columns saved about 1% of it); most trims in a process are
 * of documents of similar sizes. One of up to `KEEP_MAX_ENTRIES` entries is kept for good, a
 * bigger one until idle for `BIG_IDLE_MS`.
 * What the array held before is still there: for columns that each step writes before it reads
 * them, or that the caller clears. A call made while the array is lent (a nested trim) gets a
 * fresh one.
 */
export class ScratchArray<T extends Int32Array | Uint8Array> {
  private spare: T | undefined;
  private bigSpare: T | undefined;

  constructor(private readonly make: (length: number) => T) {}

  /** An array of at least `length` entries, not cleared. */
  take(length: number): T {
    const spare = this.spare;
    if (spare !== undefined && spare.length >= length) {
      this.spare = undefined;
      return spare;
    }
    const big = this.bigSpare;
    if (big !== undefined && big.length >= length) {
      this.bigSpare = undefined;
      return big;
    }
    return this.make(length);
  }

  /** Takes `array` back for the next call (the biggest one seen, see `BIG_IDLE_MS`). */
  give(array: T): void {
    if (array.length <= KEEP_MAX_ENTRIES) {
      if (this.spare === undefined || this.spare.length < array.length) this.spare = array;
      return;
    }
    if (this.bigSpare === undefined || this.bigSpare.length < array.length) this.bigSpare = array;
    bigHolders.add(this);
    bigRelease.touch();
  }

  /** Lets the big spare go (see `BIG_IDLE_MS`). */
  dropBig(): void {
    this.bigSpare = undefined;
  }
}
