/**
 * The exact-number JSON features of the running engine, detected on first use, and the one hook
 * through which `LosslessNumber.toJSON` serializes. Node 21+ (V8 11.4+) has `JSON.rawJSON`; Node
 * 20 does not, and every path then uses the portable fallback.
 */

/** Which exact-number JSON features are in use. */
export interface LosslessJsonFeatures {
  /**
   * `JSON.rawJSON`: `JSON.stringify` writes a `LosslessNumber` as its exact number text, and
   * `stringifyJsonLossless` is the native serializer alone. Without it, `JSON.stringify` writes
   * a `LosslessNumber` as a JSON string of its exact text, and `stringifyJsonLossless` swaps
   * private markers for the raw text after a native serialization.
   */
  rawJson: boolean;
}

type RawJson = (text: string) => unknown;

function detectRawJson(): RawJson | undefined {
  const rawJSON = (JSON as unknown as { rawJSON?: RawJson }).rawJSON;
  if (typeof rawJSON !== 'function') return undefined;
  try {
    const probe = '12345678901234567890';
    return JSON.stringify([{ toJSON: () => rawJSON(probe) }]) === `[${probe}]`
      ? rawJSON
      : undefined;
  } catch {
    return undefined;
  }
}

let detected: { rawJson: RawJson | undefined } | undefined;
let forced: Partial<LosslessJsonFeatures> | undefined;

function engine(): { rawJson: RawJson | undefined } {
  detected ??= { rawJson: detectRawJson() };
  return detected;
}

/** The exact-number JSON features in use (the engine's, unless a test turned some off). */
export function losslessJsonFeatures(): LosslessJsonFeatures {
  return { rawJson: rawJsonWriter() !== undefined };
}

/**
 * Runs `fn` with some features turned off (a feature the engine lacks cannot be turned on), so
 * tests and benchmarks reach the fallbacks on any runtime. The override is process-wide until
 * `fn` returns or, when it returns a promise, until that settles: for tests, not for production.
 */
export function withLosslessJsonFeatures<T>(
  features: Partial<LosslessJsonFeatures>,
  fn: () => T,
): T {
  const previous = forced;
  forced = { ...previous, ...features };
  const restore = () => {
    forced = previous;
  };
  let result: T;
  try {
    result = fn();
  } catch (error) {
    restore();
    throw error;
  }
  if (result instanceof Promise) return result.finally(restore) as T;
  restore();
  return result;
}

// A per-process nonce keeps markers apart from real strings: a string can only collide by
// containing this exact random token.
const NONCE = `${Math.random().toString(36).slice(2, 10)}${Date.now().toString(36)}`;

/** The prefix of a marked number string, in parsed form. */
export const NUMBER_MARK = `\u0000ln${NONCE}:`;
/** `NUMBER_MARK` as the native serializer escapes it inside a JSON string. */
export const NUMBER_MARK_IN_JSON = `\\u0000ln${NONCE}:`;

// Markers are written only while `stringifyJsonLossless` runs its marker path, which swaps every
// one back before returning, so no marker (and no NUL byte) ever reaches a caller.
let markDepth = 0;

/** Runs a native serialization in which `LosslessNumber`s write markers. */
export function withNumberMarks<T>(fn: () => T): T {
  markDepth++;
  try {
    return fn();
  } finally {
    markDepth--;
  }
}

/** The raw-JSON writer, when in use. */
export function rawJsonWriter(): RawJson | undefined {
  const { rawJson } = engine();
  return forced?.rawJson === false ? undefined : rawJson;
}

/** What `LosslessNumber.toJSON` returns for a number whose exact text is `text`. */
export function losslessNumberJson(text: string): unknown {
  if (markDepth > 0) return `${NUMBER_MARK}${text}`;
  const raw = rawJsonWriter();
  return raw ? raw(text) : text;
}
