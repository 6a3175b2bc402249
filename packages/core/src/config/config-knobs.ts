/**
 * Every knob, defined once: its config path, environment variable, default, parser and doc
 * line. The loader, the `compaction config` command and docs/configuration.md all read this
 * table, so they cannot drift apart.
 */

/**
 * How a knob's environment value is read (seed 002 §8.1):
 * - `bytes`, `count`: a positive integer; empty, zero or negative is ignored.
 * - `bytes0`, `count0`: a non-negative integer; 0 is a deliberate value (disables).
 * - `boolean`: enabled only by the literal `true` (any case); any other value reads as false.
 * - `duration`: a Go-style duration (`45s`, `5m`), rounded up to whole milliseconds; 0 from the
 *   environment is ignored.
 * - `string`: trimmed text; empty is unset.
 * - `secret`: like `string`, but never shown: `compaction config` prints only whether it is set.
 * - `list`: option only (no environment variable).
 */
export type KnobKind =
  | 'bytes'
  | 'bytes0'
  | 'count'
  | 'count0'
  | 'boolean'
  | 'duration'
  | 'string'
  | 'secret'
  | 'list';

import { MIN_TRIM_BUDGET_BYTES } from '../min-trim-budget.js';

/** One knob. */
export interface KnobDefinition {
  /** Dotted config path, such as `trim.maxResultBytes`. */
  path: string;
  /** The environment variable, or undefined for option-only knobs. */
  env: string | undefined;
  /** How values are parsed and validated. */
  kind: KnobKind;
  /** The built-in default. Durations are in milliseconds. */
  defaultValue: number | boolean | string | string[] | undefined;
  /** One line saying what it controls. */
  doc: string;
  /** Where the knob comes from. */
  origin: string;
  /**
   * Smallest usable value of a numeric knob (0 stays 0 where it disables): a smaller one, from
   * an option or the environment, is raised to it with a warning naming the knob. Default none.
   */
  minimum?: number;
  /**
   * The minimum's unit and reason, completing "below the minimum of N …" in that warning, such
   * as `bytes a structural trim needs`. Set exactly when `minimum` is.
   */
  minimumReason?: string;
}

const knob = (
  path: string,
  env: string | undefined,
  kind: KnobKind,
  defaultValue: KnobDefinition['defaultValue'],
  doc: string,
  origin: string,
  minimum?: { value: number; reason: string },
): KnobDefinition => ({
  path,
  env,
  kind,
  defaultValue,
  doc,
  origin,
  ...(minimum === undefined ? {} : { minimum: minimum.value, minimumReason: minimum.reason }),
});

// Budgets handed to the structural trimmer, which cannot cut below this.
const TRIM = { value: MIN_TRIM_BUDGET_BYTES, reason: 'bytes a structural trim needs' };
/**
 * Smallest artifact inline limit, in characters: a longer output is stored and shown as an
 * excerpt with its marker line, which need this much room.
 */
const MIN_INLINE_LIMIT = {
  value: 1000,
  reason: 'characters a stored output needs inline for its excerpt and marker line',
};

/** All knobs, grouped by layer. */
export const CONFIG_KNOBS: readonly KnobDefinition[] = [
  knob(
    'trim.enabled',
    'COMPACTION_RESULT_TRIM_ENABLED',
    'boolean',
    true,
    'Synthesis-path compaction: structural trimming and the synthesis distiller gated on it.',
    'seed 002 §4',
  ),
  knob(
    'trim.maxResultBytes',
    'COMPACTION_RESULT_TRIM_MAX_BYTES',
    'bytes',
    65_536,
    'Per-result cap when several results share one synthesis prompt.',
    'seed 002 §4',
    TRIM,
  ),
  knob(
    'trim.maxTotalBytes',
    'COMPACTION_RESULT_TRIM_MAX_TOTAL_BYTES',
    'bytes',
    196_608,
    'All results of one synthesis prompt together; also the budget of a lone result.',
    'seed 002 §4',
    TRIM,
  ),
  knob(
    'trim.maxMicroBytes',
    'COMPACTION_RESULT_TRIM_MAX_MICRO_BYTES',
    'bytes',
    65_536,
    'Source data fed to parameter micro-resolution (structural trim, never a model).',
    'seed 002 §4',
    TRIM,
  ),
  knob(
    'trim.maxAgentInputBytes',
    'COMPACTION_RESULT_TRIM_MAX_AGENT_INPUT_BYTES',
    'bytes0',
    0,
    'Per-parameter cap on tool-to-tool data; 0 passes inputs through raw; a cap is at least 256.',
    'seed 002 §4',
    TRIM,
  ),
  knob(
    'trim.schemaMappingThreshold',
    'COMPACTION_RESULT_TRIM_SCHEMA_MAPPING_THRESHOLD',
    'bytes0',
    16_384,
    'Source size above which micro-resolution switches to schema-guided mapping; 0 disables.',
    'seed 002 §4',
  ),
  knob(
    'trim.preserveKeys',
    undefined,
    'list',
    [],
    'Object keys (case-insensitive) the trimmer favours when backfilling and ordering. Option only.',
    'seed 002 §4',
  ),

  knob(
    'distill.enabled',
    'COMPACTION_RESULT_DISTILL_ENABLED',
    'boolean',
    true,
    'Master switch for model compaction (synthesis and continuation distillers).',
    'seed 002 §5.5',
  ),
  knob(
    'distill.thresholdBytes',
    'COMPACTION_RESULT_DISTILL_THRESHOLD',
    'bytes',
    16_384,
    'Minimum result size sent to a model; smaller results get the structural trim.',
    'seed 002 §5.5',
  ),
  knob(
    'distill.prefilterBytes',
    'COMPACTION_RESULT_DISTILL_PREFILTER',
    'bytes',
    131_072,
    'Stage-1 structural cap before a single-call distill.',
    'seed 002 §5.5',
    TRIM,
  ),
  knob(
    'distill.targetBytes',
    'COMPACTION_RESULT_DISTILL_TARGET',
    'bytes',
    4096,
    'Approximate size of a distilled summary.',
    'seed 002 §5.5',
  ),
  knob(
    'distill.model',
    'COMPACTION_RESULT_DISTILL_MODEL',
    'string',
    'fast',
    'Model alias (fast, default, smart) or concrete model for distill calls.',
    'seed 002 §5.5',
  ),
  knob(
    'distill.cacheTtlMs',
    'COMPACTION_RESULT_DISTILL_CACHE_TTL',
    'duration',
    300_000,
    'How long an identical distillation is reused when a cache is supplied.',
    'seed 002 §5.5',
  ),
  knob(
    'distill.cacheSecret',
    'COMPACTION_RESULT_DISTILL_CACHE_SECRET',
    'secret',
    undefined,
    'Shared secret that authenticates distill cache entries (HMAC-SHA256); unset: entries are checked against their input but not authenticated.',
    'beyond seed 002 §5.3',
  ),
  knob(
    'distill.deadlineMs',
    'COMPACTION_RESULT_DISTILL_DEADLINE',
    'duration',
    45_000,
    'Wall-clock bound per compaction; on timeout the floor or a partial result is returned.',
    'seed 002 §5.5',
  ),
  knob(
    'distill.contextTokens',
    'COMPACTION_RESULT_DISTILL_CONTEXT_TOKENS',
    'count',
    150_000,
    'Estimated tokens above which a result is chunked and map-reduced.',
    'seed 002 §5.5',
  ),
  knob(
    'distill.mapReduceThresholdBytes',
    'COMPACTION_RESULT_DISTILL_MAPREDUCE_THRESHOLD',
    'bytes0',
    0,
    'Bytes above which a result map-reduces regardless of tokens; 0 disables; below the pre-filter budget it is ignored.',
    'seed 002 §5.5',
  ),
  knob(
    'distill.mapConcurrency',
    'COMPACTION_RESULT_DISTILL_MAP_CONCURRENCY',
    'count',
    8,
    'Chunk distillations run at once in map-reduce.',
    'seed 002 §5.5',
  ),

  knob(
    'continuation.maxTotalBytes',
    'COMPACTION_CONTINUATION_RESULT_MAX_TOTAL_CHARS',
    'bytes',
    196_608,
    'Soft byte target of the planning section (drives eviction of older successes).',
    'seed 002 §6.5',
  ),
  knob(
    'continuation.nonJsonFloorBytes',
    'COMPACTION_CONTINUATION_RESULT_MAX_CHARS',
    'bytes',
    10_000,
    'Floor-preview size of a non-JSON step in the planning section.',
    'seed 002 §6.5',
    TRIM,
  ),
  knob(
    'continuation.maxEscalations',
    'COMPACTION_CONTINUATION_MAX_ESCALATIONS',
    'count0',
    8,
    'Newest non-JSON steps that may escalate to the continuation distiller; 0 disables.',
    'seed 002 §6.5',
  ),
  knob(
    'continuation.digestArraySample',
    'COMPACTION_CONTINUATION_DIGEST_ARRAY_SAMPLE',
    'count',
    3,
    'Head sample of each array in a digest.',
    'seed 002 §6.5',
  ),
  knob(
    'continuation.digestScalarMax',
    'COMPACTION_CONTINUATION_DIGEST_SCALAR_MAX',
    'count',
    200,
    'Longest string (characters) kept inline in a digest before it becomes a descriptor.',
    'seed 002 §6.5',
  ),
  knob(
    'continuation.digestMaxKeys',
    'COMPACTION_CONTINUATION_DIGEST_MAX_KEYS',
    'count',
    50,
    'Keys kept per object in a digest before sampling to sorted keys and a sentinel.',
    'seed 002 §6.5',
  ),

  knob(
    'failedOperationView.enabled',
    'COMPACTION_FAILED_OPERATION_VIEW_ENABLED',
    'boolean',
    true,
    'Include bounded evidence of failed dispatches in continuation and synthesis.',
    'seed 002 §1',
  ),
  knob(
    'failedOperationView.maxInputBytes',
    'COMPACTION_FAILED_OPERATION_MAX_INPUT_BYTES',
    'bytes',
    4096,
    'Per input value of a failed attempt, in final rendered bytes.',
    'seed 002 §1',
  ),
  knob(
    'failedOperationView.maxStepBytes',
    'COMPACTION_FAILED_OPERATION_MAX_STEP_BYTES',
    'bytes',
    16_384,
    'Per failed step, in final rendered bytes.',
    'seed 002 §1',
  ),
  knob(
    'failedOperationView.maxPromptBytes',
    'COMPACTION_FAILED_OPERATION_MAX_PROMPT_BYTES',
    'bytes',
    32_768,
    'All failed-operation views of one prompt, in final rendered bytes.',
    'seed 002 §1',
  ),

  knob(
    'artifacts.inlineLimitChars',
    'COMPACTION_ARTIFACT_INLINE_LIMIT',
    'count',
    4000,
    'Tool outputs longer than this many characters are stored as artifacts.',
    'seed 001',
    // The excerpt and marker of a stored output need this much (`MIN_INLINE_LIMIT_CHARS` of
    // @compaction/artifacts, which a test keeps equal).
    MIN_INLINE_LIMIT,
  ),
  knob(
    'artifacts.viewMaxBytes',
    'COMPACTION_ARTIFACT_VIEW_MAX_BYTES',
    'bytes',
    16_384,
    "Budget of the tool-result helper's view of a stored output made by a processor (pointer line included).",
    'issue 44',
    TRIM,
  ),

  knob(
    'conversation.enabled',
    'COMPACTION_CONVERSATION_ENABLED',
    'boolean',
    true,
    'Hold the tool results of a whole prompt to the conversation budget (AI SDK middleware, OpenAI Agents filter, LangChain middleware, tool-result helper): older results step down to a small view, then to one pointer line.',
    'issue 41',
  ),
  knob(
    'conversation.maxBytes',
    'COMPACTION_CONVERSATION_MAX_BYTES',
    'bytes',
    98_304,
    'Budget of all tool results of one prompt, in UTF-8 bytes, unless a token budget or a context window is given.',
    'issue 41',
  ),
  knob(
    'conversation.maxTokens',
    'COMPACTION_CONVERSATION_MAX_TOKENS',
    'count',
    undefined,
    "The same budget in tokens, counted by the adapter's tokenCounter (default UTF-8 bytes / 3.5); unset leaves it in bytes.",
    'issue 41',
  ),
  knob(
    'conversation.windowSharePercent',
    'COMPACTION_CONVERSATION_WINDOW_SHARE',
    'count',
    25,
    'Percent (1–100) of contextWindowTokens the tool results may take, when the adapter is given the window and no other budget.',
    'issue 41',
  ),
  knob(
    'conversation.clearAtLeastPercent',
    'COMPACTION_CONVERSATION_CLEAR_AT_LEAST',
    'count',
    40,
    'Percent (1–100) of the budget each step-down leaves free under it (it frees what the turn went over, plus this), so the prompt prefix (and its cache) breaks rarely.',
    'issue 41',
  ),
  knob(
    'conversation.keepLast',
    'COMPACTION_CONVERSATION_KEEP_LAST',
    'count',
    2,
    'Newest tool results that always keep their view (the newest always does); keep it times the per-result budget well under the conversation budget.',
    'issue 41',
  ),
  knob(
    'conversation.smallViewBytes',
    'COMPACTION_CONVERSATION_SMALL_VIEW_BYTES',
    'bytes',
    2048,
    'Size of the small view an older result steps down to before its pointer line (at least 256).',
    'issue 41',
  ),

  knob(
    'mcpProxy.timeoutMs',
    'COMPACTION_MCP_PROXY_TIMEOUT',
    'duration',
    600_000,
    'How long `compaction mcp-proxy` waits for the server to answer a forwarded call (restarted by each progress notification) before answering the client with an error.',
    'issue 43',
  ),

  knob(
    'mcpProxy.maxMessageBytes',
    'COMPACTION_MCP_PROXY_MAX_MESSAGE_BYTES',
    'bytes',
    67_108_864,
    'Longest message `compaction mcp-proxy` reads from the server (one line of JSON); a longer answer is skipped as it arrives and its call answered with an error.',
    'issue 43',
  ),

  knob(
    'mcpProxy.distill',
    'COMPACTION_MCP_PROXY_DISTILL',
    'boolean',
    false,
    '`compaction mcp-proxy` distills its views with a model (the provider from OPENAI_API_KEY, ANTHROPIC_API_KEY or OPENAI_BASE_URL); an API key alone never turns it on.',
    'issue 43',
  ),

  knob(
    'redisUrl',
    'COMPACTION_REDIS_URL',
    'string',
    undefined,
    'Redis URL for the shared distill cache (for example redis://127.0.0.1:6379). The `compaction` CLI connects to it; `createCompaction` opens no connection of its own: pass `createRedisDistillCache({ client })` as `deps.distillCache`.',
    'seed 002 §5.3',
  ),
  knob(
    'llmDebug',
    'COMPACTION_LLM_DEBUG_ENABLED',
    'boolean',
    false,
    'Record every distill call (single and map-reduce chunk i/N) for inspection.',
    'seed 002 §10',
  ),
];
