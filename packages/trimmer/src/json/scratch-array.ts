/** Entries of a scratch array worth keeping between calls: a bigger one is let go after its call. */
const KEEP_MAX_ENTRIES = 1 << 20;

/**
 * A typed array lent to one call at a time and kept for the next one. A fresh typed array is
 * allocated outside the heap, zeroed and later collected (a trim of a 600 KB list made 77 of
 * them; keeping the biggest working columns saved about 1% of it); most trims in a process are
 * of documents of similar sizes.
 * What the array held before is still there: for columns that each step writes before it reads
 * them, or that the caller clears. A call made while the array is lent (a nested trim) gets a
 * fresh one.
 */
export class ScratchArray<T extends Int32Array | Uint8Array> {
  private spare: T | undefined;

  constructor(private readonly make: (length: number) => T) {}

  /** An array of at least `length` entries, not cleared. */
  take(length: number): T {
    const spare = this.spare;
    if (spare !== undefined && spare.length >= length) {
      this.spare = undefined;
      return spare;
    }
    return this.make(length);
  }

  /** Takes `array` back for the next call (the biggest one seen that is worth keeping). */
  give(array: T): void {
    if (array.length > KEEP_MAX_ENTRIES) return;
    if (this.spare === undefined || this.spare.length < array.length) this.spare = array;
  }
}
