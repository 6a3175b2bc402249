import { type JsonValue, parseJsonLossless, utf8ByteLength } from '@compaction/core';
import { type DigestCaps, type DigestSettings, resolveDigestCaps } from './digest-settings.js';
import { type DigestElisions, digestValue } from './digest-value.js';

/** The digest of one JSON text. */
export interface DigestResult {
  /** The digest: minified JSON that always parses. */
  digest: string;
  /** True when anything was sampled or elided (the `…` sentinels and descriptors say what). */
  contentLost: boolean;
  /** Counts of what was left out. */
  elisions: DigestElisions;
  /** UTF-8 bytes of the input text (counted when first read). */
  readonly originalBytes: number;
  /** UTF-8 bytes of `digest`. */
  digestBytes: number;
  /** Numbers kept as exact source text because a JavaScript number would change them. */
  losslessNumbers: number;
}

/** The outcome of digesting a text that may not be JSON. */
export type DigestOutcome =
  | ({ ok: true } & DigestResult)
  | {
      ok: false;
      /** Why the text is not JSON. */
      error: SyntaxError;
      /** UTF-8 bytes of the input text (counted when first read). */
      readonly originalBytes: number;
    };

/** Builds digests with fixed caps. */
export interface Digester {
  /** The caps this digester applies. */
  readonly caps: Readonly<DigestCaps>;
  /**
   * Digests a JSON text (a leading byte-order mark is ignored). Never throws: text that is not
   * JSON returns `{ ok: false }` with the parser's reason, so a caller can fall back to a
   * non-JSON preview.
   */
  digest(text: string): DigestOutcome;
  /** Digests an already parsed value (numbers as `parseJsonLossless` returns them). */
  digestValue(value: JsonValue): Omit<DigestResult, 'originalBytes' | 'losslessNumbers'>;
}

/**
 * Creates a digester: structure-complete, always-valid JSON skeletons of JSON results for the
 * continuation planning prompt (seed 002 §6.1). Numbers go through core's lossless JSON, so a
 * 64-bit id survives byte for byte. Output is deterministic for a given input and caps.
 */
export function createDigester(settings: DigestSettings = {}): Digester {
  const caps = Object.freeze(resolveDigestCaps(settings));
  const ofValue = (value: JsonValue) => {
    const result = digestValue(value, caps);
    return {
      digest: result.text,
      contentLost: result.contentLost,
      elisions: result.elisions,
      digestBytes: result.bytes,
    };
  };
  return {
    caps,
    digest(text) {
      const parsed = parseJsonLossless(text);
      // Counting UTF-8 bytes of a large non-Latin-1 text costs a sizeable share of a parse, so
      // it is done only when asked for.
      let originalBytes: number | undefined;
      const sized = <T extends object>(outcome: T): T & { readonly originalBytes: number } =>
        Object.defineProperty(outcome, 'originalBytes', {
          enumerable: true,
          get: () => {
            originalBytes ??= utf8ByteLength(text);
            return originalBytes;
          },
        }) as T & { readonly originalBytes: number };
      if (!parsed.ok) return sized({ ok: false as const, error: parsed.error });
      return sized({
        ok: true as const,
        ...ofValue(parsed.value),
        losslessNumbers: parsed.losslessNumbers,
      });
    },
    digestValue: ofValue,
  };
}

/** One-shot `createDigester(settings).digest(text)`. */
export function digestJson(text: string, settings: DigestSettings = {}): DigestOutcome {
  return createDigester(settings).digest(text);
}
