import {
  type AiSdkPrompt,
  type CompactionMiddlewareSettings,
  createToolResultCompaction,
} from './compact-tool-results.js';

/**
 * A language-model middleware for `wrapLanguageModel`. `transformParams` is generic over the
 * call options, so the same object is a `LanguageModelV3Middleware` (AI SDK 6) and a
 * `LanguageModelV4Middleware` (AI SDK 7) without this package importing either.
 */
export interface CompactionMiddleware<Version extends 'v3' | 'v4'> {
  readonly specificationVersion: Version;
  /** Returns the call options with every oversized tool result replaced by its view. */
  transformParams<Params extends { prompt: AiSdkPrompt; abortSignal?: AbortSignal }>(options: {
    params: Params;
  }): Promise<Params>;
}

/**
 * An AI SDK language-model middleware (`wrapLanguageModel({ model, middleware })`) that,
 * before each model call, replaces every tool result over `maxResultBytes` with its compacted
 * view (disclosure notes included). `text`, `json`, error and `content` outputs (the MCP tools
 * of `@ai-sdk/mcp`) are compacted; images, files and denied executions pass through. Each view
 * is computed once per tool result and reused on later steps, so the prompt prefix is
 * byte-stable across a multi-step run.
 *
 * It declares the `v3` specification, which `ai` 6 requires and `ai` 7 accepts; code typed
 * against `LanguageModelV4Middleware` uses `createCompactionMiddlewareV4`.
 */
export function createCompactionMiddleware(
  settings: CompactionMiddlewareSettings,
): CompactionMiddleware<'v3'> {
  return middleware('v3', settings);
}

/** `createCompactionMiddleware` declaring the `v4` specification of AI SDK 7. */
export function createCompactionMiddlewareV4(
  settings: CompactionMiddlewareSettings,
): CompactionMiddleware<'v4'> {
  return middleware('v4', settings);
}

function middleware<Version extends 'v3' | 'v4'>(
  specificationVersion: Version,
  settings: CompactionMiddlewareSettings,
): CompactionMiddleware<Version> {
  const compact = createToolResultCompaction(settings);
  return {
    specificationVersion,
    async transformParams({ params }) {
      return { ...params, prompt: await compact(params.prompt, params.abortSignal) };
    },
  };
}
