import { InvalidArgumentError } from '../errors.js';
import { losslessNumberJson } from './lossless-json-features.js';

const LOSSLESS_NUMBER = Symbol.for('compaction.LosslessNumber');

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * A JSON number whose text does not survive a round trip through a JavaScript number
 * (`12345678901234567890`, `1.0`, `1e400`, `-0`). It keeps the exact source text, and
 * `stringifyJsonLossless` writes that text back byte for byte.
 *
 * `JSON.stringify` works on it too: where the engine offers `JSON.rawJSON` (Node 21+) it writes
 * the exact number; elsewhere (Node 20) it writes the exact text as a JSON string
 * (`"12345678901234567890"`), which keeps every digit but not the type. Use
 * `stringifyJsonLossless` for the number itself on every runtime.
 */
export class LosslessNumber {
  readonly [LOSSLESS_NUMBER] = true;

  /** The number exactly as it appeared in the source JSON. */
  readonly text: string;

  /** @throws InvalidArgumentError when `text` is not a JSON number token. */
  constructor(text: string) {
    if (typeof text !== 'string' || !JSON_NUMBER.test(text)) {
      throw new InvalidArgumentError({
        argument: 'text',
        message: `LosslessNumber needs the text of a JSON number, got ${typeof text === 'string' ? JSON.stringify(text.slice(0, 40)) : typeof text}`,
      });
    }
    this.text = text;
  }

  /** The nearest JavaScript number (lossy: for arithmetic and comparisons only). */
  valueOf(): number {
    return Number(this.text);
  }

  toString(): string {
    return this.text;
  }

  /** The JSON form `JSON.stringify` writes: the exact number where the engine can, else its text. */
  toJSON(): unknown {
    return losslessNumberJson(this.text);
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
