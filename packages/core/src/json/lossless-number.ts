const LOSSLESS_NUMBER = Symbol.for('compaction.LosslessNumber');

/**
 * A JSON number whose text does not survive a round trip through a JavaScript number
 * (`12345678901234567890`, `1.0`, `1e400`, `-0`). It keeps the exact source text, and
 * `stringifyJsonLossless` writes that text back byte for byte.
 */
export class LosslessNumber {
  readonly [LOSSLESS_NUMBER] = true;

  /** The number exactly as it appeared in the source JSON. */
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  /** The nearest JavaScript number (lossy: for arithmetic and comparisons only). */
  valueOf(): number {
    return Number(this.text);
  }

  toString(): string {
    return this.text;
  }

  /**
   * True when a JavaScript number would write the JSON number token `token` differently
   * (`12345678901234567890`, `1.0`, `1e400`, `-0`), so it needs a `LosslessNumber` to survive.
   */
  static isNeededFor(token: string): boolean {
    return String(Number(token)) !== token;
  }

  /** True for a `LosslessNumber` from any copy of this package. */
  static isInstance(value: unknown): value is LosslessNumber {
    return typeof value === 'object' && value !== null && LOSSLESS_NUMBER in value;
  }
}
