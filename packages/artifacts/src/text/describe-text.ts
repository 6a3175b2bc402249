import { assertString } from '@compaction/core';
import { sha256Hex } from '../storage/sha256-hex.js';
import { countGraphemes } from './count-graphemes.js';

/** Size and digest of a whole result. */
export interface TextDescription {
  /** UTF-8 bytes (a lone surrogate counts as the 3 bytes of U+FFFD it encodes to). */
  bytes: number;
  /** Extended grapheme clusters, as `Intl.Segmenter` counts them. */
  chars: number;
  /** Lowercase hex SHA-256 of the UTF-8 bytes. */
  digest: string;
}

/**
 * Bytes, chars and SHA-256 of `text`. Linear in the input, unlike `excerpt`: it is what a caller
 * without a store computes once to fill the marker (the store computes the same while writing).
 */
export function describeText(text: string): TextDescription {
  assertString(text, 'text');
  const data = Buffer.from(text, 'utf8');
  return { bytes: data.byteLength, chars: countGraphemes(text), digest: sha256Hex(data) };
}
