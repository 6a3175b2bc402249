import { isSimpleUnit } from './is-simple-unit.js';

const LF = 0x0a;
const CR = 0x0d;
const ZWJ = 0x200d;

// What each UTF-16 unit is to `walkEasyClusters`. 0: a unit of no easy shape (the segmenter decides).
const UNKNOWN = 0;
/** A simple unit (`isSimpleUnit`) of grapheme class Other: a base that marks may follow. */
const BASE = 1;
/** A simple unit of class Control or LF: a cluster of its own (GB4, GB5). */
const CONTROL = 2;
const CARRIAGE_RETURN = 3;
/** A unit of class Extend listed by `isMarkUnit`. */
const MARK = 4;
const JOINER = 5;
/** Hangul syllable types (GB6 to GB8): jamo L, V, T and precomposed syllables LV, LVT. */
const L = 6;
const V = 7;
const T = 8;
const LV = 9;
const LVT = 10;
/** High surrogates of U+1F000 to U+3FFFF: emoji, flags, modifiers, CJK ideographs of planes 2, 3. */
const HIGH = 11;
/** The high surrogate of the tags U+E0000 to U+E03FF. */
const TAG_HIGH = 12;

/** GCB Control units among the simple ones: C0 and C1 controls, soft hyphen, U+2028 to U+202E. */
function isControlUnit(unit: number): boolean {
  return (
    unit < 0x20 ||
    (unit >= 0x7f && unit <= 0x9f) ||
    unit === 0xad ||
    (unit >= 0x2028 && unit <= 0x202e)
  );
}

/**
 * BMP units of grapheme class Extend that commonly follow a simple base: combining diacritics
 * (U+0300 to U+036F) and marks for symbols (U+20D0 to U+20F0), kana voicing marks (U+3099,
 * U+309A and their halfwidth forms U+FF9E, U+FF9F), variation selectors (U+FE00 to U+FE0F).
 * Every one is assigned, so no Unicode version reads any of them as Other.
 */
function isMarkUnit(unit: number): boolean {
  return (
    (unit >= 0x300 && unit <= 0x36f) ||
    (unit >= 0x20d0 && unit <= 0x20f0) ||
    unit === 0x3099 ||
    unit === 0x309a ||
    (unit >= 0xfe00 && unit <= 0xfe0f) ||
    unit === 0xff9e ||
    unit === 0xff9f
  );
}

function hangulKind(unit: number): number {
  if (unit >= 0x1100 && unit <= 0x11ff) return unit < 0x1160 ? L : unit < 0x11a8 ? V : T;
  if (unit >= 0xa960 && unit <= 0xa97c) return L;
  if (unit >= 0xac00 && unit <= 0xd7a3) return (unit - 0xac00) % 28 === 0 ? LV : LVT;
  if (unit >= 0xd7b0 && unit <= 0xd7c6) return V;
  if (unit >= 0xd7cb && unit <= 0xd7fb) return T;
  return UNKNOWN;
}

function unitKind(unit: number): number {
  const hangul = hangulKind(unit);
  if (hangul !== UNKNOWN) return hangul;
  if (isSimpleUnit(unit)) {
    if (unit === CR) return CARRIAGE_RETURN;
    return isControlUnit(unit) ? CONTROL : BASE;
  }
  if (isMarkUnit(unit)) return MARK;
  if (unit === ZWJ) return JOINER;
  if (unit >= 0xd83c && unit <= 0xd8bf) return HIGH;
  return unit === 0xdb40 ? TAG_HIGH : UNKNOWN;
}

/**
 * The kind of every UTF-16 unit, built on first use (64 KiB): one load per unit, where the
 * range tests of `isSimpleUnit` and the rest cost several times that on CJK text.
 */
let unitKinds: Uint8Array | undefined;

function buildUnitKinds(): Uint8Array {
  const kinds = new Uint8Array(0x10000);
  for (let unit = 0; unit < 0x10000; unit++) kinds[unit] = unitKind(unit);
  unitKinds = kinds;
  return kinds;
}

/** The code point of the surrogate pair at `at`, or -1 when it is not whole within `to`. */
function pairIn(text: string, at: number, to: number): number {
  if (at + 1 >= to) return -1;
  const high = text.charCodeAt(at);
  const low = text.charCodeAt(at + 1);
  if (low < 0xdc00 || low > 0xdfff) return -1;
  return ((high - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
}

/**
 * True for a supplementary code point of grapheme class Other that may start a cluster here:
 * the symbol and emoji blocks U+1F000 to U+1FAFF without the regional indicators (paired apart)
 * and the emoji modifiers (Extend), and the CJK ideographs of planes 2 and 3.
 */
function isAstralBase(point: number): boolean {
  if (point >= 0x20000) return point <= 0x3ffff;
  return point >= 0x1f000 && point <= 0x1faff && !(point >= 0x1f3fb && point <= 0x1f3ff);
}

function isRegionalIndicator(point: number): boolean {
  return point >= 0x1f1e6 && point <= 0x1f1ff;
}

const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;
/** Per code point below U+20000: 0 not yet asked, 1 not pictographic, 2 pictographic. */
let pictographic: Uint8Array | undefined;

/**
 * `\p{Extended_Pictographic}` of `point`, as the ICU data the segmenter reads answers it (the
 * set has shrunk between Unicode versions, so no copy of it is kept here). Asked only at a ZWJ,
 * and remembered per code point.
 */
function isPictographic(point: number): boolean {
  if (point >= 0x20000) return PICTOGRAPHIC.test(String.fromCodePoint(point));
  pictographic ??= new Uint8Array(0x20000);
  let known = pictographic[point]!;
  if (known === 0) {
    known = PICTOGRAPHIC.test(String.fromCodePoint(point)) ? 2 : 1;
    pictographic[point] = known;
  }
  return known === 2;
}

/** The code point at `at` (`at < to`), or -1 for a lone surrogate or a pair cut by `to`. */
function codePointIn(text: string, at: number, to: number): number {
  const unit = text.charCodeAt(at);
  if (unit < 0xd800 || unit > 0xdfff) return unit;
  return unit <= 0xdbff ? pairIn(text, at, to) : -1;
}

/**
 * True when the code point at `at`, whose unit is of `kind`, starts a cluster after any cluster
 * `walkEasyClusters` walked (which holds no Prepend and ends with no Extended_Pictographic ZWJ,
 * no unpaired regional indicator, no Hangul unit it could join): a simple unit, a Hangul jamo,
 * a regional indicator, an emoji or a supplementary CJK ideograph. None of them is Extend, ZWJ,
 * SpacingMark or an Indic conjunct consonant, so no rule of UAX #29 joins it to what precedes.
 */
function startsWith(kind: number, text: string, at: number, to: number): boolean {
  if (kind === HIGH) {
    const point = pairIn(text, at, to);
    return point >= 0 && (isAstralBase(point) || isRegionalIndicator(point));
  }
  return (kind >= BASE && kind <= CARRIAGE_RETURN) || (kind >= L && kind <= LVT);
}

/**
 * True when a grapheme boundary falls before `i` whatever surrounds the two code points there:
 * after LF; after CR, unless LF follows; after another simple unit (`isSimpleUnit`) and before a
 * unit that starts a cluster of a shape `walkEasyClusters` knows, a jamo only where no syllable
 * precedes it (GB6 to GB8). Wider than `isCertainBoundary`: it also holds before an emoji, a
 * flag or a jamo.
 */
export function isEasyBoundary(text: string, i: number, to = text.length): boolean {
  if (i <= 0 || i >= to) return true;
  const kinds = unitKinds ?? buildUnitKinds();
  const before = kinds[text.charCodeAt(i - 1)]!;
  if (before === CONTROL || before === CARRIAGE_RETURN) {
    return before === CONTROL || text.charCodeAt(i) !== LF;
  }
  if (before !== BASE && before !== LV && before !== LVT) return false;
  const after = kinds[text.charCodeAt(i)]!;
  if (after === L || after === V || after === T) return before === BASE;
  return startsWith(after, text, i, to);
}

/** Where the Hangul sequence that starts at `at` (a jamo or syllable) ends: L* (V+ | LV V* | LVT) T*. */
function hangulEnd(kinds: Uint8Array, text: string, at: number, to: number): number {
  // What may follow: after L, any of L V LV LVT; after V or LV, V or T; after T or LVT, T.
  let state = kinds[text.charCodeAt(at)]!;
  let end = at + 1;
  while (end < to) {
    const kind = kinds[text.charCodeAt(end)]!;
    if (state === L) {
      if (kind !== L && kind !== V && kind !== LV && kind !== LVT) break;
    } else if (state === V || state === LV) {
      if (kind !== V && kind !== T) break;
    } else if (kind !== T) break;
    state = kind;
    end++;
  }
  return end;
}

/**
 * What a walk has found so far: clusters counted and, when asked for, where each ends. A class
 * with every field set in its constructor, so all tallies share one hidden class, which one
 * long-lived tally (the segmenter's probe) keeps alive.
 */
export class ClusterTally {
  /** Clusters counted. */
  count = 0;
  /** End index of each cluster counted, in order, when the caller wants them. */
  readonly ends: number[] | undefined;
  /**
   * Stop at the start of a run of at least this many simple units (one cluster each), for a
   * caller that counts such runs faster by native search. Default: never.
   */
  readonly simpleRun: number;
  /** Set by the walk: true when it stopped for `simpleRun`, false otherwise. */
  inSimpleRun = false;

  constructor(options: { ends?: number[]; simpleRun?: number } = {}) {
    this.ends = options.ends;
    this.simpleRun = options.simpleRun ?? Number.POSITIVE_INFINITY;
  }
}

/**
 * Walks the extended grapheme clusters of `text[from, to)` from `from` (a boundary) while their
 * shape needs no segmenter, adding each to `tally`, and returns where it stopped: `to`, the
 * start of a long simple run (`tally.simpleRun`), or the boundary where the first cluster of
 * another shape starts (the caller segments from there).
 * The shapes: CR LF, a control, a simple unit (`isSimpleUnit`), a Hangul L/V/T sequence, a
 * regional-indicator pair, an emoji or supplementary CJK ideograph; each followed by common
 * marks (`isMarkUnit`), emoji modifiers, tags and ZWJ, with every Extended_Pictographic ZWJ
 * Extended_Pictographic link (GB11) taken in. A cluster counts once the unit after it starts
 * one of these shapes (`startsWith`: then nothing can join it), or when it reaches `to`: a boundary, or where
 * the caller's window stops and the cluster may go on, which the caller then drops. Reads
 * nothing at or past `to`.
 */
export function walkEasyClusters(
  text: string,
  from: number,
  to: number,
  tally: ClusterTally,
): number {
  const kinds = unitKinds ?? buildUnitKinds();
  const ends = tally.ends;
  const simpleRun = tally.simpleRun;
  tally.inSimpleRun = false;
  let count = 0;
  let at = from;
  // The start of the last cluster counted while the unit after it is not yet known to start
  // one (-1 after a control, which nothing joins: GB4).
  let open = -1;
  let kind = at < to ? kinds[text.charCodeAt(at)]! : UNKNOWN;
  while (at < to) {
    let end = at + 1;
    let unit = 0;
    if (kind === BASE) {
      // A run of simple units is one cluster each, but the last may take marks.
      while (end < to && kinds[text.charCodeAt(end)] === BASE && end - at < simpleRun) end++;
      const last = end - 1;
      if (end - at >= simpleRun) {
        count += last - at;
        if (ends) for (let p = at + 1; p <= last; p++) ends.push(p);
        tally.inSimpleRun = true;
        at = last;
        open = -1;
        break;
      }
      if (last > at) {
        count += last - at;
        if (ends) for (let p = at + 1; p <= last; p++) ends.push(p);
        at = last;
        end = last + 1;
      }
    } else if (kind === CONTROL || kind === CARRIAGE_RETURN) {
      if (kind === CARRIAGE_RETURN && end < to && text.charCodeAt(end) === LF) end++;
      count++;
      ends?.push(end);
      open = -1;
      at = end;
      if (at < to) kind = kinds[text.charCodeAt(at)]!;
      continue;
    } else if (kind >= L && kind <= LVT) {
      end = hangulEnd(kinds, text, at, to);
      unit = -1;
    } else if (kind === HIGH) {
      unit = pairIn(text, at, to);
      if (unit < 0) break;
      end = at + 2;
      if (isRegionalIndicator(unit)) {
        // `at` is a boundary, so this indicator starts a pair (GB12, GB13).
        if (end < to && kinds[text.charCodeAt(end)] === HIGH) {
          if (isRegionalIndicator(pairIn(text, end, to))) end += 2;
        }
        unit = -1;
      } else if (!isAstralBase(unit)) break;
    } else break;
    // The cluster at `at` starts one: the one before it is whole.
    count++;
    ends?.push(end);
    open = at;
    // The code point a ZWJ would link from (GB11), -1 when none could, 0 for the BMP unit at
    // `start` (read only at a ZWJ).
    let link = unit;
    const start = at;
    kind = UNKNOWN;
    while (end < to) {
      kind = kinds[text.charCodeAt(end)]!;
      if (kind === MARK) end++;
      else if (kind === JOINER) {
        end++;
        kind = UNKNOWN;
        if (link === 0) link = text.charCodeAt(start);
        if (link >= 0 && end < to && isPictographic(link)) {
          const point = codePointIn(text, end, to);
          if (point >= 0 && isPictographic(point)) {
            end += point > 0xffff ? 2 : 1;
            link = point;
            continue;
          }
        }
        link = -1;
      } else if (kind === HIGH || kind === TAG_HIGH) {
        // Emoji modifiers U+1F3FB to U+1F3FF (Extend); tags U+E0020 to U+E007F.
        const point = pairIn(text, end, to);
        if ((point >= 0x1f3fb && point <= 0x1f3ff) || (point >= 0xe0020 && point <= 0xe007f)) {
          end += 2;
        } else break;
      } else break;
    }
    if (ends) ends[ends.length - 1] = end;
    at = end;
    if (at < to && !startsWith(kind, text, at, to)) break;
  }
  if (at < to && open >= 0) {
    // What follows the last cluster may join it: leave that cluster to the segmenter.
    count--;
    ends?.pop();
    at = open;
  }
  tally.count += count;
  return at;
}
