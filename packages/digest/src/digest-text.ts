import { parseJsonLossless, withJsonTape } from '@compaction/core';
import type { DigestCaps } from './digest-settings.js';
import { digestTape } from './digest-tape.js';
import { digestValue, type ValueDigest } from './digest-value.js';
import type { DigestPassOptions } from './digest-work-poll.js';

/**
 * Digests a JSON text, or returns why it is not JSON (the `SyntaxError` of `JSON.parse`). The
 * text is validated and indexed by core's WebAssembly tape and the digest read from the tape;
 * where WebAssembly is unavailable it is parsed with `parseJsonLossless` and the value walked,
 * with the same result byte for byte. A leading byte-order mark is ignored. Throws
 * `DigestStoppedError` when `options.shouldStop` stops the walk.
 */
export function digestText(
  text: string,
  caps: DigestCaps,
  options: DigestPassOptions = {},
): ValueDigest | SyntaxError {
  const read = withJsonTape(text, (tape) => digestTape(tape, caps, options));
  if (read.ok) return read.value;
  // Not JSON, or no tape here: the parse gives the reason, or the value to walk.
  const parsed = parseJsonLossless(text);
  return parsed.ok ? digestValue(parsed.value, caps, options) : parsed.error;
}
