/** The resolved knobs of a distiller. */
export interface ResolvedDistillerSettings {
  enabled: boolean;
  thresholdBytes: number;
  prefilterBytes: number;
  targetBytes: number;
  model: string;
  cacheTtlMs: number;
  /** Whether cache entries are authenticated (the secret itself is not exposed). */
  cacheAuthenticated: boolean;
  deadlineMs: number;
  contextTokens: number;
  /** 0 when disabled or ignored for being below `prefilterBytes`. */
  mapReduceThresholdBytes: number;
  mapConcurrency: number;
  preserveKeys: readonly string[];
  cacheTimeoutMs: number;
}
