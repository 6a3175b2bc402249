import { ConfigError, resolveConfig } from '@compaction/core';

/** The caps of a digest, as `digestValue` applies them. */
export interface DigestCaps {
  /** Head sample of each array. */
  arraySample: number;
  /** Longest string kept inline, in characters (code points). */
  scalarMax: number;
  /** Keys kept per object before it is sampled to sorted keys. */
  maxKeys: number;
  /** Container nesting at which a container becomes a descriptor. */
  maxDepth: number;
}

/** Settings of `createDigester` and `digestJson`. Each unset value comes from the environment, then the default. */
export interface DigestSettings {
  /**
   * Elements kept from the head of every array; longer arrays end with a `"…N more of M"`
   * sentinel. Default 3. `COMPACTION_CONTINUATION_DIGEST_ARRAY_SAMPLE`.
   */
  arraySample?: number;
  /**
   * Longest string kept inline, in characters (code points); longer strings become a
   * `"…(N chars)"` descriptor. Default 200. `COMPACTION_CONTINUATION_DIGEST_SCALAR_MAX`.
   */
  scalarMax?: number;
  /**
   * Keys kept per object. A wider object is treated as a map: its first `maxKeys` keys in
   * sorted (UTF-16 code unit) order are kept, followed by a `"…": "…N more of M keys"`
   * sentinel entry. Default 50. `COMPACTION_CONTINUATION_DIGEST_MAX_KEYS`.
   */
  maxKeys?: number;
  /**
   * Container nesting depth (the root container is depth 1) beyond which an object or array is
   * replaced by a `"…(object of N keys)"` / `"…(array of N)"` descriptor, so pathological
   * nesting (100 000 levels) still yields a small, valid digest. Default 64. Option only, no
   * environment variable.
   */
  maxDepth?: number;
  /** Environment to read the `COMPACTION_*` variables from. Default `process.env`, read once by the factory. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Default `maxDepth` of a digest. */
export const DEFAULT_DIGEST_MAX_DEPTH = 64;

/** Resolves digest caps: explicit setting, then `COMPACTION_*` variable, then default. */
export function resolveDigestCaps(settings: DigestSettings = {}): DigestCaps {
  const { continuation } = resolveConfig({
    options: {
      continuation: {
        digestArraySample: settings.arraySample,
        digestScalarMax: settings.scalarMax,
        digestMaxKeys: settings.maxKeys,
      },
    },
    env: settings.env,
  });
  const maxDepth = settings.maxDepth ?? DEFAULT_DIGEST_MAX_DEPTH;
  if (!Number.isSafeInteger(maxDepth) || maxDepth < 1) {
    throw new ConfigError({
      option: 'digest.maxDepth',
      value: settings.maxDepth,
      reason: 'must be a positive integer',
    });
  }
  return {
    arraySample: continuation.digestArraySample,
    scalarMax: continuation.digestScalarMax,
    maxKeys: continuation.digestMaxKeys,
    maxDepth,
  };
}
