/** Units of a text that `textHash` reads: all of one up to this long. */
export const TEXT_HASH_UNITS = 48;
/** Of a longer text, its first this many units, then its last `TEXT_HASH_UNITS` minus these. */
const HEAD_UNITS = 32;

/**
 * Two odd 16-bit multipliers per unit read, in reading order; json-tape.wat holds the same ones,
 * eight units to a vector (a core test compares the two hashes).
 */
const FIRST = Int16Array.of(
  12047,
  -7181,
  32205,
  7615,
  -32341,
  -29539,
  7055,
  29413,
  -8875,
  -29457,
  15281,
  29595,
  28113,
  -16207,
  3061,
  20923,
  1173,
  26753,
  14389,
  14007,
  -151,
  25665,
  31555,
  -28059,
  -27499,
  -25733,
  -18069,
  24963,
  -8767,
  -3519,
  -23985,
  -7195,
  -27845,
  9011,
  11801,
  -11499,
  -26925,
  -23759,
  32167,
  10823,
  3467,
  -6649,
  -26355,
  -31041,
  31777,
  14403,
  17021,
  7841,
);
const SECOND = Int16Array.of(
  -27957,
  15575,
  6933,
  19465,
  18553,
  -9407,
  30909,
  -10191,
  26059,
  8011,
  -28295,
  561,
  10921,
  -19413,
  1257,
  -7507,
  31223,
  267,
  -23469,
  -12565,
  -9927,
  -20083,
  -8879,
  23989,
  13127,
  -22947,
  22493,
  6985,
  -7151,
  15917,
  -25041,
  -18437,
  -23469,
  7793,
  21215,
  13163,
  22227,
  -1961,
  20457,
  -25705,
  -25281,
  -22803,
  -14905,
  6105,
  25295,
  -32129,
  -17961,
  6025,
);

/**
 * A 32-bit hash of the UTF-16 units `text[from, to)`, as the tape's inventory computes it in
 * WebAssembly for every key and value (`JsonTapeInventory.keyHash`, `valueHash`): two sums of
 * each unit read (as a signed 16-bit number) times its own two multipliers, the second folded,
 * mixed with the length (MurmurHash3's finalizer). Every unit of a text up to `TEXT_HASH_UNITS` long is read,
 * so two such texts that differ differ in their hash but for chance (about one pair in 2³²); of
 * a longer text, its first 32 and last 16 units, so long texts that differ only between those
 * share it. Sums of 16-bit products, unlike a chain of multiplications, let eight units be read
 * at once (WebAssembly's `i32x4.dot_i16x8_s`). Positions are UTF-16 indexes; one outside `text`
 * reads as 0, and a range with `to < from` reads none (only its length is mixed in).
 */
export function textHash(text: string, from: number, to: number): number {
  const length = to - from;
  const read = Math.min(length, TEXT_HASH_UNITS);
  // Past the head, a longer text's units are read from its end.
  const tail = length > TEXT_HASH_UNITS ? to - TEXT_HASH_UNITS : from;
  let first = 0;
  let second = 0;
  for (let i = 0; i < read; i++) {
    const unit = (text.charCodeAt((i < HEAD_UNITS ? from : tail) + i) << 16) >> 16;
    first = (first + Math.imul(unit, FIRST[i]!)) | 0;
    second = (second + Math.imul(unit, SECOND[i]!)) | 0;
  }
  // `second` is folded before it is mixed in: `first ^ second * k` alone is the same for a text
  // and its negation (each unit u as -u) whenever the two sums' lowest set bits line up, as
  // they always do for one unit.
  let h = first ^ Math.imul(second ^ (second >>> 16), 0xcc9e2d51) ^ Math.imul(length, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
