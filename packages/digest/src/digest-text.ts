import { parseJsonLossless, withJsonTape } from '@compaction/core';
import type { DigestCaps } from './digest-settings.js';
import { digestTape } from './digest-tape.js';
import { digestValue, type ValueDigest } from './digest-value.js';

/**
 * Digests a JSON text, or returns why it is not JSON (the `SyntaxError` of `JSON.parse`). The
 * text is validated and indexed by core's WebAssembly tape and the digest read from the tape;
 * where WebAssembly is unavailable it is parsed with `parseJsonLossless` and the value walked,
 * with the same result byte for byte. A leading byte-order mark is ignored.
 */
export function digestText(text: string, caps: DigestCaps): ValueDigest | SyntaxError {
  const read = withJsonTape(text, (tape) => digestTape(tape, caps));
  if (read.ok) return read.value;
  // Not JSON, or no tape here: the parse gives the reason, or the value to walk.
  const parsed = parseJsonLossless(text);
  return parsed.ok ? digestValue(parsed.value, caps) : parsed.error;
}
