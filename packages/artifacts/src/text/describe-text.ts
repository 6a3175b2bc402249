import { assertString } from '@compaction/core/internal';
import { isSha256Hex } from '../storage/is-sha256-hex.js';
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
 * `digest`, when the caller already has `text`'s SHA-256 (`contentDigest`), is taken as given.
 */
export function describeText(text: string, digest?: string): TextDescription {
  assertString(text, 'text');
  if (digest !== undefined && isSha256Hex(digest))
    return { bytes: Buffer.byteLength(text, 'utf8'), chars: countGraphemes(text), digest };
  const data = Buffer.from(text, 'utf8');
  return { bytes: data.byteLength, chars: countGraphemes(text), digest: sha256Hex(data) };
}
