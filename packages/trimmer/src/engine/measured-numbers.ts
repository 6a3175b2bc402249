/**
 * The numbers a text's lines measure (`lineMeasureOutliers`), in text order: each one's measure
 * (a dense id, interned from its key in order of first number), value and row. Read by the
 * JavaScript pass or the WebAssembly line scan (line-scan.wat's `measureRows`), which give the
 * same keys in the same order.
 */
export class MeasuredNumbers {
  measure: Int32Array;
  value: Float64Array;
  row: Int32Array;
  /** Numbers held. */
  count = 0;
  /** Measures interned. */
  measures = 0;
  // Measures are interned through an open-addressed table of their keys' hashes (0 free).
  private slots = 1024;
  private slotKey = new Int32Array(1024);
  private slotId = new Int32Array(1024);

  constructor(rows: number) {
    const capacity = Math.max(1024, 2 * rows);
    this.measure = new Int32Array(capacity);
    this.value = new Float64Array(capacity);
    this.row = new Int32Array(capacity);
  }

  /** Adds a number of the measure of `key` (odd, never 0). */
  add(key: number, value: number, row: number): void {
    let { slots, slotKey } = this;
    let slot = (key ^ (key >>> 13)) & (slots - 1);
    while (slotKey[slot] !== 0 && slotKey[slot] !== key) slot = (slot + 1) & (slots - 1);
    if (slotKey[slot] === 0) {
      slotKey[slot] = key;
      this.slotId[slot] = this.measures++;
      if (2 * this.measures > slots) {
        // Twice the slots, rehashed.
        const oldKey = slotKey;
        const oldId = this.slotId;
        slots *= 2;
        slotKey = new Int32Array(slots);
        const slotId = new Int32Array(slots);
        for (let s = 0; s < oldKey.length; s++) {
          const k = oldKey[s]!;
          if (k === 0) continue;
          let t = (k ^ (k >>> 13)) & (slots - 1);
          while (slotKey[t] !== 0) t = (t + 1) & (slots - 1);
          slotKey[t] = k;
          slotId[t] = oldId[s]!;
        }
        this.slots = slots;
        this.slotKey = slotKey;
        this.slotId = slotId;
        slot = (key ^ (key >>> 13)) & (slots - 1);
        while (slotKey[slot] !== key) slot = (slot + 1) & (slots - 1);
      }
    }
    const n = this.count;
    if (n === this.measure.length) {
      const capacity = 2 * n;
      this.measure = grown(this.measure, capacity);
      this.row = grown(this.row, capacity);
      const values = new Float64Array(capacity);
      values.set(this.value);
      this.value = values;
    }
    this.measure[n] = this.slotId[slot]!;
    this.value[n] = value;
    this.row[n] = row;
    this.count = n + 1;
  }
}

/** `array` copied into a new array of `length`. */
function grown(array: Int32Array, length: number): Int32Array {
  const copy = new Int32Array(length);
  copy.set(array);
  return copy;
}

/**
 * Keeps the hidden class of `MeasuredNumbers` alive between trims, and the optimised code using
 * it: a class whose last object died is collected with it, and code that read such objects is
 * thrown away at the next GC.
 */
export const MEASURED_NUMBERS_SHAPE = new MeasuredNumbers(0);
