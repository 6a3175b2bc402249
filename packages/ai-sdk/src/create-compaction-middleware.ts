import { createHash } from 'node:crypto';
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Middleware,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3ToolResultPart,
} from '@ai-sdk/provider';
import {
  InvalidArgumentError,
  type ProcessedResult,
  type ResultProcessor,
  utf8ByteLength,
} from '@compaction/core';

/** One tool result the middleware compacted. */
export interface CompactedToolResult {
  toolCallId: string;
  toolName: string;
  /** What the processor returned (view and metadata). */
  processed: ProcessedResult;
  /** True when this call reused a view computed for an earlier call. */
  reused: boolean;
}

/** Settings of `createCompactionMiddleware`. */
export interface CompactionMiddlewareSettings {
  /**
   * Turns one oversized tool result into its prompt view: `compaction.synthesisProcessor`, a
   * bare `createStructuralTrimmer()`, an artifact-backed excerpt processor, or your own.
   * Required.
   */
  processor: ResultProcessor;
  /**
   * Tool results larger than this many UTF-8 bytes are compacted to it. Default 65536, the
   * default of `COMPACTION_RESULT_TRIM_MAX_BYTES` (pass `compaction.synthesisBudgets.perResultBytes`
   * to follow your configuration).
   */
  maxResultBytes?: number;
  /** Views kept for reuse (least recently used dropped first). Default 1000. */
  maxCachedResults?: number;
  /**
   * The user query a view is conditioned on. Default: the text of the latest user message.
   * A view is computed once, with the query of the call that first saw the result, and reused
   * byte for byte afterwards, so the prompt prefix stays stable for prompt caching.
   */
  userQuery?: (prompt: LanguageModelV3Prompt) => string | undefined;
  /** Called for every compacted tool result of every call (for logging and tests). */
  onCompacted?: (result: CompactedToolResult) => void;
}

function latestUserText(prompt: LanguageModelV3Prompt): string | undefined {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i]!;
    if (message.role !== 'user') continue;
    const text = message.content
      .flatMap((part) => (part.type === 'text' ? [part.text] : []))
      .join('\n');
    if (text) return text;
  }
  return undefined;
}

function outputText(
  output: LanguageModelV3ToolResultOutput,
): { text: string; error: boolean } | undefined {
  switch (output.type) {
    case 'text':
      return { text: output.value, error: false };
    case 'error-text':
      return { text: output.value, error: true };
    case 'json':
      return { text: JSON.stringify(output.value) ?? 'null', error: false };
    case 'error-json':
      return { text: JSON.stringify(output.value) ?? 'null', error: true };
    default:
      return undefined;
  }
}

/**
 * An AI SDK language-model middleware (`wrapLanguageModel({ model, middleware })`) that, before
 * each model call, replaces every tool result over `maxResultBytes` with its compacted view
 * (disclosure notes included). Each view is computed once per tool result and reused on later
 * steps, so the prompt prefix is byte-stable across a multi-step run. Tool results that fit,
 * denied executions and non-text content parts pass through untouched.
 */
export function createCompactionMiddleware(
  settings: CompactionMiddlewareSettings,
): LanguageModelV3Middleware {
  const maxResultBytes = settings.maxResultBytes ?? 65_536;
  const maxCached = settings.maxCachedResults ?? 1000;
  if (!settings.processor || typeof settings.processor.process !== 'function') {
    throw new InvalidArgumentError({
      argument: 'processor',
      message: 'processor must be a ResultProcessor',
    });
  }
  if (!Number.isSafeInteger(maxResultBytes) || maxResultBytes <= 0) {
    throw new InvalidArgumentError({
      argument: 'maxResultBytes',
      message: 'maxResultBytes must be a positive integer',
    });
  }
  if (!Number.isSafeInteger(maxCached) || maxCached <= 0) {
    throw new InvalidArgumentError({
      argument: 'maxCachedResults',
      message: 'maxCachedResults must be a positive integer',
    });
  }
  const views = new Map<string, Promise<ProcessedResult>>();

  const viewFor = (
    key: string,
    compute: () => Promise<ProcessedResult>,
  ): { view: Promise<ProcessedResult>; reused: boolean } => {
    const cached = views.get(key);
    if (cached) {
      views.delete(key);
      views.set(key, cached);
      return { view: cached, reused: true };
    }
    const view = compute();
    views.set(key, view);
    // A failed computation is not kept: the next call tries again.
    view.catch(() => views.delete(key));
    while (views.size > maxCached) views.delete(views.keys().next().value!);
    return { view, reused: false };
  };

  const compactPart = async (
    part: LanguageModelV3ToolResultPart,
    query: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<LanguageModelV3ToolResultPart> => {
    const output = outputText(part.output);
    if (!output || utf8ByteLength(output.text) <= maxResultBytes) return part;
    const key = `${part.toolCallId}\u0000${createHash('sha256').update(output.text).digest('hex')}`;
    const { view, reused } = viewFor(key, () =>
      settings.processor.process(output.text, maxResultBytes, {
        userQuery: query,
        toolName: part.toolName,
        stepId: part.toolCallId,
        signal,
      }),
    );
    const processed = await view;
    settings.onCompacted?.({
      toolCallId: part.toolCallId,
      toolName: part.toolName,
      processed,
      reused,
    });
    const compacted: LanguageModelV3ToolResultOutput = output.error
      ? { type: 'error-text', value: processed.text }
      : { type: 'text', value: processed.text };
    return { ...part, output: compacted };
  };

  return {
    specificationVersion: 'v3',
    async transformParams({ params }): Promise<LanguageModelV3CallOptions> {
      const query = (settings.userQuery ?? latestUserText)(params.prompt);
      const prompt = await Promise.all(
        params.prompt.map(async (message) => {
          if (message.role !== 'tool') return message;
          const content = await Promise.all(
            message.content.map((part) =>
              part.type === 'tool-result' ? compactPart(part, query, params.abortSignal) : part,
            ),
          );
          return { ...message, content };
        }),
      );
      return { ...params, prompt };
    },
  };
}
