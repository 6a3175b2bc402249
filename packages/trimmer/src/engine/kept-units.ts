import type { UnitCopies } from '../readers/unit-copies.js';

/** Lines of one shape the head and the tail show before they step over the rest. */
const EDGE_COPIES = 2;
/**
 * Lines of one shape a pass over what stands out unasked shows before it steps over the rest
 * of that shape until every other unit that stands out had its turn: the note counts the
 * shape's lines (`events by shape`), so a fourth copy says less than a line of another kind.
 */
export const RANKED_COPIES = 3;

/** The units of a text a view keeps, as `selectText` builds it, and the bytes they take. */
export interface KeptUnitsInput {
  /** UTF-8 bytes of each unit, its line ending included. */
  sizes: Float64Array;
  /** Bytes a gap between kept units costs (its marker at the widest); 0 when gaps are free. */
  gapCost: number;
  /** A diff's units: the unit each one needs shown with it (its hunk, its file), or -1. */
  parents: Int32Array | undefined;
  /** A diff's units: set on the `@@` line of a hunk split into lines. */
  splitHeader: Uint8Array | undefined;
  /** A diff's units: set on the unchanged lines of a split hunk. */
  contextLine: Uint8Array;
  /** A diff's units: set on those a question word is on. */
  matched: Uint8Array;
  scores: Float64Array;
  /** Copies of kept units, stepped over where the caller asks `fresh`. */
  copies: UnitCopies | undefined;
  /** Per unit, its line shape (a dense id below `templates`), for the head and the tail. */
  template: Int32Array | undefined;
  templates: number;
}

// A class rather than closures made per call: V8 keeps a closure's optimised code only while the
// closure lives, so closures made per trim ran unoptimised again after every collection (the
// first trim after one took about twice as long).
/**
 * What a text view keeps: per unit 0 (left out), 1 (kept whole) or 2 (shown in a window), and
 * `used`, the bytes of the kept units and of the gaps between them, each gap at the widest
 * marker, so the view never outgrows what was counted. At first the whole text is one gap.
 */
export class KeptUnits {
  readonly keep: Uint8Array;
  used: number;
  /** The head is kept up to `headEnd` (exclusive), the tail from `tailEnd`. */
  headEnd = 0;
  tailEnd: number;
  private readonly total: number;
  private readonly input: KeptUnitsInput;
  /** Per split hunk, how many of its changed lines are kept. */
  private readonly changesShown: Int32Array | undefined;
  private readonly headCopies: Int32Array | undefined;
  private readonly tailCopies: Int32Array | undefined;

  constructor(input: KeptUnitsInput) {
    this.input = input;
    this.total = input.sizes.length;
    this.keep = new Uint8Array(this.total);
    this.used = input.gapCost;
    this.tailEnd = this.total;
    this.changesShown = input.splitHeader ? new Int32Array(this.total) : undefined;
    this.headCopies = input.template ? new Int32Array(input.templates) : undefined;
    this.tailCopies = input.template ? new Int32Array(input.templates) : undefined;
  }

  /** `used` counted again from what is kept (whole units; no window) and the gaps between. */
  recount(): void {
    const { keep, total } = this;
    const { sizes, gapCost } = this.input;
    let used = 0;
    for (let i = 0; i < total; i++) {
      if (keep[i] === 1) used += sizes[i]!;
      else if (i === 0 || keep[i - 1] !== 0) used += gapCost;
    }
    this.used = used;
  }

  /** Gaps made (1), kept (0) or closed (-1) by keeping unit `x` as things stand. */
  gapChange(x: number): number {
    const { keep, total } = this;
    return (x > 0 && keep[x - 1] === 0 ? 1 : 0) + (x + 1 < total && keep[x + 1] === 0 ? 1 : 0) - 1;
  }

  /** Whether unit `i` is kept or reads as no unit kept. */
  fresh(i: number): boolean {
    const { copies } = this.input;
    return this.keep[i] === 1 || !copies || !copies.isCopy(i);
  }

  /**
   * Takes the units of `order` in turn that read as no unit kept (`fresh`) within `limit`, until
   * less than a byte is left.
   */
  takeFresh(order: Int32Array, limit: number): void {
    for (const i of order) {
      if (limit - this.used < 1) return;
      this.takeIfFresh(i, limit);
    }
  }

  /**
   * `takeFresh` for an order of what stands out unasked (`rankByScore`): a unit of a shape
   * already shown `RANKED_COPIES` times is stepped over until the rest of the order had its
   * turn, then the order is taken again as `takeFresh` takes it. A question's order is taken
   * whole: forty lines of one shape it matches are what it asks for.
   */
  takeVaried(order: Int32Array, limit: number): void {
    const { template, templates } = this.input;
    if (template) {
      const shown = new Int32Array(templates);
      for (let i = 0; i < this.total; i++) if (this.keep[i] === 1) shown[template[i]!]!++;
      for (const i of order) {
        if (limit - this.used < 1) return;
        if (this.keep[i] !== 0 || shown[template[i]!]! >= RANKED_COPIES) continue;
        if (this.takeIfFresh(i, limit)) shown[template[i]!]!++;
      }
    }
    this.takeFresh(order, limit);
  }

  /**
   * Keeps unit `i` (`take`) where it reads as no unit kept (`fresh`); whether it was kept now. A
   * unit with no parents that cannot fit even less the one gap it may close is passed over
   * first: that is cheaper than asking whether it is a copy.
   */
  private takeIfFresh(i: number, limit: number): boolean {
    const { parents, sizes, gapCost } = this.input;
    const mayFit =
      parents !== undefined || this.keep[i] !== 0 || this.used + sizes[i]! - gapCost <= limit;
    return mayFit && this.fresh(i) && this.take(i, limit);
  }

  /**
   * Keeps unit `i` with the units it needs (a hunk's file header; a hunk line's header line and
   * file header: at most two ancestors, all paid for together) when `used` stays within
   * `limit`; whether it is kept. A split hunk shows its unchanged lines only around a change of
   * it that is shown, unless the question names them: context alone reads as a hunk with no
   * change.
   */
  take(i: number, limit: number): boolean {
    const { keep, changesShown } = this;
    if (keep[i] === 1) return true;
    const { parents, splitHeader, contextLine, matched, scores, sizes, gapCost } = this.input;
    // A split hunk's `@@` line comes only with a line of it (as its parent), never alone: taken
    // for itself (the question names it), it comes with its best changed line.
    if (splitHeader && splitHeader[i] === 1) {
      let best = -1;
      for (let j = i + 1; j < this.total && parents![j] === i; j++) {
        if (contextLine[j] === 0 && (best < 0 || scores[j]! > scores[best]!)) best = j;
      }
      return best < 0 || this.take(best, limit);
    }
    if (
      changesShown &&
      contextLine[i] === 1 &&
      matched[i] === 0 &&
      changesShown[parents![i]!] === 0
    ) {
      return false;
    }
    let need = 0;
    let p = i;
    for (; p >= 0 && keep[p] === 0; p = parents ? parents[p]! : -1) {
      need += sizes[p]! + gapCost * this.gapChange(p);
      keep[p] = 1;
    }
    if (this.used + need > limit) {
      for (let q = i; q !== p; q = parents ? parents[q]! : -1) keep[q] = 0;
      return false;
    }
    this.used += need;
    this.input.copies?.add(i);
    if (changesShown && splitHeader![parents![i]!] === 1 && contextLine[i] === 0) {
      changesShown[parents![i]!]!++;
    }
    return true;
  }

  /**
   * Keeps units from the start of the text on (`head`) or from its end back, within `limit`,
   * until one does not fit; a line of a shape that end already shows twice is stepped over: a
   * run of one routine line says what it says in its first copies.
   */
  fill(head: boolean, limit: number): void {
    const { keep } = this;
    const { template } = this.input;
    const shown = head ? this.headCopies : this.tailCopies;
    // Each end steps over lines only as far as the middle: a tail of routine lines must not
    // walk into the head and leave the text's first line (its first time) to nothing.
    const middle = this.total >> 1;
    while (this.headEnd < this.tailEnd) {
      const i = head ? this.headEnd : this.tailEnd - 1;
      if (!template || shown![template[i]!]! < EDGE_COPIES || keep[i] !== 0) {
        if (!this.take(i, limit)) return;
        if (template) shown![template[i]!]!++;
      } else if (head ? i >= middle : i < middle) {
        return;
      }
      if (head) this.headEnd++;
      else this.tailEnd--;
    }
  }
}

/** Keeps the class's hidden classes alive between trims, and the optimised code using them. */
export const KEPT_UNITS_SHAPE = new KeptUnits({
  sizes: new Float64Array(0),
  gapCost: 0,
  parents: undefined,
  splitHeader: undefined,
  contextLine: new Uint8Array(0),
  matched: new Uint8Array(0),
  scores: new Float64Array(0),
  copies: undefined,
  template: undefined,
  templates: 0,
});
