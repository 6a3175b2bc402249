import { assertString, type JsonValue, utf8ByteLength } from '@compaction/core';
import { type DigestCaps, type DigestSettings, resolveDigestCaps } from './digest-settings.js';
import { DigestStoppedError } from './digest-stopped-error.js';
import { digestText } from './digest-text.js';
import { type DigestElisions, digestValue, type ValueDigest } from './digest-value.js';
import type { DigestPassOptions } from './digest-work-poll.js';

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
  /**
   * Numbers in the digest written as their exact source text because a JavaScript number would
   * change them (64-bit ids, `1.0`, `-0`, `1e400`).
   */
  losslessNumbers: number;
}

/** The outcome of digesting a text that may not be JSON. */
export type DigestOutcome =
  | ({ ok: true } & DigestResult)
  | {
      ok: false;
      /**
       * Why the text is not JSON, or `DigestStoppedError` when `options.shouldStop` stopped the
       * digest: either way the caller shows its non-JSON preview instead.
       */
      error: SyntaxError | DigestStoppedError;
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
   * non-JSON preview, and so does a digest stopped by `options.shouldStop` (polled every 4096
   * values, with `DigestStoppedError`).
   */
  digest(text: string, options?: DigestPassOptions): DigestOutcome;
  /** Digests an already parsed value (numbers as `parseJsonLossless` returns them). */
  digestValue(value: JsonValue): Omit<DigestResult, 'originalBytes'>;
}

/**
 * Creates a digester: structure-complete, always-valid JSON skeletons of JSON results for the
 * continuation planning prompt (seed 002 §6.1). Numbers are copied from the text, so a 64-bit id
 * survives byte for byte. Output is deterministic for a given input and caps.
 *
 * A text is validated and indexed by core's WebAssembly tape (`withJsonTape`) and the digest is
 * read from the tape, visiting only the kept values; no value of the input is created. Where
 * WebAssembly is unavailable, the text is parsed with `parseJsonLossless` and the parsed value
 * walked instead: the digest is the same, byte for byte.
 */
export function createDigester(settings: DigestSettings = {}): Digester {
  const caps = Object.freeze(resolveDigestCaps(settings));
  const result = (digest: ValueDigest) => ({
    digest: digest.text,
    contentLost: digest.contentLost,
    elisions: digest.elisions,
    digestBytes: digest.bytes,
    losslessNumbers: digest.losslessNumbers,
  });
  const ofValue = (value: JsonValue) => result(digestValue(value, caps));
  const ofText = (text: string, options: DigestPassOptions) => {
    let digest: ValueDigest | SyntaxError;
    try {
      digest = digestText(text, caps, options);
    } catch (error) {
      if (DigestStoppedError.isInstance(error)) return error;
      throw error;
    }
    return digest instanceof SyntaxError ? digest : result(digest);
  };
  return {
    caps,
    digest(text, options = {}) {
      const digested = ofText(assertString(text, 'text'), options);
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
      if (digested instanceof SyntaxError || DigestStoppedError.isInstance(digested)) {
        return sized({ ok: false as const, error: digested });
      }
      return sized({ ok: true as const, ...digested });
    },
    digestValue: ofValue,
  };
}

/** One-shot `createDigester(settings).digest(text)`. */
export function digestJson(text: string, settings: DigestSettings = {}): DigestOutcome {
  return createDigester(settings).digest(text);
}
