/** Layer 1: structural trimming (seed 002 §4). */
export interface TrimConfig {
  /** Synthesis-path trimming (and the synthesis distiller, which is gated on it). Default true. `COMPACTION_RESULT_TRIM_ENABLED`. */
  enabled: boolean;
  /** Per-result cap when several results share one synthesis prompt, in bytes. Default 65536. `COMPACTION_RESULT_TRIM_MAX_BYTES`. */
  maxResultBytes: number;
  /** All results of one synthesis prompt together, and a lone result's budget, in bytes. Default 196608. `COMPACTION_RESULT_TRIM_MAX_TOTAL_BYTES`. */
  maxTotalBytes: number;
  /** Source data for parameter micro-resolution, in bytes. Default 65536. `COMPACTION_RESULT_TRIM_MAX_MICRO_BYTES`. */
  maxMicroBytes: number;
  /** Per-parameter cap on tool→tool data; 0 passes inputs through raw. Default 0. `COMPACTION_RESULT_TRIM_MAX_AGENT_INPUT_BYTES`. */
  maxAgentInputBytes: number;
  /** Source size above which micro-resolution switches to schema-guided mapping; 0 disables. Default 16384. `COMPACTION_RESULT_TRIM_SCHEMA_MAPPING_THRESHOLD`. */
  schemaMappingThreshold: number;
  /** Object keys (case-insensitive) the trimmer favours. Default none. Option only, no env var. */
  preserveKeys: string[];
}

/** Layer 2: fast-model distillation (seed 002 §5). */
export interface DistillConfig {
  /** Master switch for all model compaction (synthesis and continuation). Default true. `COMPACTION_RESULT_DISTILL_ENABLED`. */
  enabled: boolean;
  /** Minimum result size that is sent to a model, in bytes. Default 16384. `COMPACTION_RESULT_DISTILL_THRESHOLD`. */
  thresholdBytes: number;
  /** Stage-1 structural pre-filter budget, in bytes. Default 131072. `COMPACTION_RESULT_DISTILL_PREFILTER`. */
  prefilterBytes: number;
  /** Approximate size of a distilled summary, in bytes. Default 4096. `COMPACTION_RESULT_DISTILL_TARGET`. */
  targetBytes: number;
  /** Model alias (`fast`, `default`, `smart`) or a concrete model name. Default `fast`. `COMPACTION_RESULT_DISTILL_MODEL`. */
  model: string;
  /** How long a cached distillation is reused, in milliseconds; 0 (option only) disables. Default 5m. `COMPACTION_RESULT_DISTILL_CACHE_TTL`. */
  cacheTtlMs: number;
  /** Shared secret that authenticates distill cache entries (HMAC-SHA256). Default none. `COMPACTION_RESULT_DISTILL_CACHE_SECRET`. */
  cacheSecret: string | undefined;
  /** Wall-clock bound on one compaction, in milliseconds; 0 (option only) disables. Default 45s. `COMPACTION_RESULT_DISTILL_DEADLINE`. */
  deadlineMs: number;
  /** Estimated tokens above which a result is map-reduced. Default 150000. `COMPACTION_RESULT_DISTILL_CONTEXT_TOKENS`. */
  contextTokens: number;
  /** Bytes above which a result map-reduces regardless of tokens; 0 disables; below the pre-filter budget it is ignored. Default 0. `COMPACTION_RESULT_DISTILL_MAPREDUCE_THRESHOLD`. */
  mapReduceThresholdBytes: number;
  /** Chunk distillations run at once in map-reduce. Default 8. `COMPACTION_RESULT_DISTILL_MAP_CONCURRENCY`. */
  mapConcurrency: number;
}

/** Layer 3: continuation digests (seed 002 §6). */
export interface ContinuationConfig {
  /** Soft byte target of the planning section. Default 196608. `COMPACTION_CONTINUATION_RESULT_MAX_TOTAL_CHARS`. */
  maxTotalBytes: number;
  /** Floor-preview size of a non-JSON step, in bytes. Default 10000. `COMPACTION_CONTINUATION_RESULT_MAX_CHARS`. */
  nonJsonFloorBytes: number;
  /** Newest non-JSON steps that may escalate to the continuation distiller per phase; 0 disables. Default 8. `COMPACTION_CONTINUATION_MAX_ESCALATIONS`. */
  maxEscalations: number;
  /** Head sample of each array in a digest. Default 3. `COMPACTION_CONTINUATION_DIGEST_ARRAY_SAMPLE`. */
  digestArraySample: number;
  /** Longest string kept inline in a digest, in characters. Default 200. `COMPACTION_CONTINUATION_DIGEST_SCALAR_MAX`. */
  digestScalarMax: number;
  /** Keys kept per object before sampling. Default 50. `COMPACTION_CONTINUATION_DIGEST_MAX_KEYS`. */
  digestMaxKeys: number;
}

/** The bounded view of failed dispatches (seed 002 §1, failed-operation evidence). */
export interface FailedOperationViewConfig {
  /** Include the view in continuation and synthesis. Default true. `COMPACTION_FAILED_OPERATION_VIEW_ENABLED`. */
  enabled: boolean;
  /** Per input value, in final rendered UTF-8 bytes. Default 4096. `COMPACTION_FAILED_OPERATION_MAX_INPUT_BYTES`. */
  maxInputBytes: number;
  /** Per failed step, in final rendered UTF-8 bytes. Default 16384. `COMPACTION_FAILED_OPERATION_MAX_STEP_BYTES`. */
  maxStepBytes: number;
  /** Per prompt, in final rendered UTF-8 bytes. Default 32768. `COMPACTION_FAILED_OPERATION_MAX_PROMPT_BYTES`. */
  maxPromptBytes: number;
}

/** Artifact store and excerpts (seeds 000 and 001). */
export interface ArtifactsConfig {
  /** Tool outputs up to this many characters stay inline; longer ones are stored. Default 4000. `COMPACTION_ARTIFACT_INLINE_LIMIT`. */
  inlineLimitChars: number;
  /** The tool-result helper's view of a stored output, when a processor makes it, in UTF-8 bytes (pointer line included). Default 16384. `COMPACTION_ARTIFACT_VIEW_MAX_BYTES`. */
  viewMaxBytes: number;
}

/** The conversation budget of the framework adapters (issue 41). */
export interface ConversationConfig {
  /** Hold the tool results of a whole prompt to the budget. Default true. `COMPACTION_CONVERSATION_ENABLED`. */
  enabled: boolean;
  /** Budget of all tool results of one prompt, in UTF-8 bytes. Default 98304 (96 KiB). `COMPACTION_CONVERSATION_MAX_BYTES`. */
  maxBytes: number;
  /** The budget in tokens; unset leaves it in bytes. Default unset. `COMPACTION_CONVERSATION_MAX_TOKENS`. */
  maxTokens: number | undefined;
  /** Percent (1–100) of a given context window the tool results may take. Default 25. `COMPACTION_CONVERSATION_WINDOW_SHARE`. */
  windowSharePercent: number;
  /** Percent (1–100) of the budget each step-down leaves free under it. Default 40. `COMPACTION_CONVERSATION_CLEAR_AT_LEAST`. */
  clearAtLeastPercent: number;
  /** Newest tool results that always keep their view. Default 2. `COMPACTION_CONVERSATION_KEEP_LAST`. */
  keepLast: number;
  /** Size of an older result's small view, in UTF-8 bytes (at least 256). Default 2048. `COMPACTION_CONVERSATION_SMALL_VIEW_BYTES`. */
  smallViewBytes: number;
}

/** `compaction mcp-proxy`, the MCP proxy of `@compaction/mcp`. */
export interface McpProxyConfig {
  /** How long a forwarded call may go unanswered, in milliseconds (each progress notification restarts the wait); 0 (option only) disables. Default 10m. `COMPACTION_MCP_PROXY_TIMEOUT`. */
  timeoutMs: number;
  /** Longest message read from the server, in UTF-8 bytes; a longer answer is skipped and its call answered with an error. Default 67108864 (64 MiB). `COMPACTION_MCP_PROXY_MAX_MESSAGE_BYTES`. */
  maxMessageBytes: number;
  /** Distill the views with a model; an API key alone never turns it on. Default false. `COMPACTION_MCP_PROXY_DISTILL`. */
  distill: boolean;
}

/** Every Compaction knob, resolved. */
export interface CompactionConfig {
  trim: TrimConfig;
  distill: DistillConfig;
  continuation: ContinuationConfig;
  failedOperationView: FailedOperationViewConfig;
  artifacts: ArtifactsConfig;
  conversation: ConversationConfig;
  mcpProxy: McpProxyConfig;
  /** Redis URL for the shared distill cache. Default none. `COMPACTION_REDIS_URL`. */
  redisUrl: string | undefined;
  /** Record every distill call for inspection. Default false. `COMPACTION_LLM_DEBUG_ENABLED`. */
  llmDebug: boolean;
}

/** Explicit options: any subset of the config; each given value wins over env and default. */
export interface CompactionConfigOptions {
  trim?: Partial<TrimConfig>;
  distill?: Partial<DistillConfig>;
  continuation?: Partial<ContinuationConfig>;
  failedOperationView?: Partial<FailedOperationViewConfig>;
  artifacts?: Partial<ArtifactsConfig>;
  conversation?: Partial<ConversationConfig>;
  mcpProxy?: Partial<McpProxyConfig>;
  redisUrl?: string;
  llmDebug?: boolean;
}
