import {
  type CompactedToolResult,
  createToolResultViews,
  type ResultProcessor,
} from '@compaction/core';

/**
 * What the middleware reads of an AI SDK prompt. `LanguageModelV3Prompt` (AI SDK 6) and
 * `LanguageModelV4Prompt` (AI SDK 7) are both assignable to it.
 */
export type AiSdkPrompt = ReadonlyArray<{ readonly role: string; readonly content: unknown }>;

/** Settings of `createCompactionMiddleware` and `createCompactionMiddlewareV4`. */
export interface CompactionMiddlewareSettings {
  /**
   * Turns one oversized tool result into its prompt view: `compaction.synthesisProcessor`, a
   * bare `createStructuralTrimmer()`, `createArtifactMode(…).processor` (full bytes stored, a
   * pointer and a view in the prompt), or your own. Required.
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
  userQuery?: (prompt: AiSdkPrompt) => string | undefined;
  /** Called for every compacted tool result of every call (for logging and tests). */
  onCompacted?: (result: CompactedToolResult) => void;
}

// The parts of the V3 and V4 prompt types this module reads; both specifications share them.
interface TextPart {
  type: 'text';
  text: string;
}
type ToolOutput =
  | { type: 'text' | 'error-text'; value: string }
  | { type: 'json' | 'error-json'; value: unknown }
  | { type: 'content'; value: ReadonlyArray<{ type: string }> }
  | { type: string; value?: unknown };
interface ToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  output: ToolOutput;
}
interface PromptMessage {
  role: string;
  content: string | ReadonlyArray<{ type: string }>;
}

function latestUserText(prompt: readonly PromptMessage[]): string | undefined {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i]!;
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    const text = message.content
      .flatMap((part) => (part.type === 'text' ? [(part as TextPart).text] : []))
      .join('\n');
    if (text) return text;
  }
  return undefined;
}

/** The text a tool output carries, and how to put a view of it back in its place. */
function outputText(
  output: ToolOutput,
): { text: string; rebuild: (view: string) => ToolOutput } | undefined {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return {
        text: output.value as string,
        rebuild: (view) => ({ ...output, value: view }),
      };
    case 'json':
    case 'error-json': {
      const type = output.type === 'json' ? 'text' : 'error-text';
      return {
        text: JSON.stringify(output.value) ?? 'null',
        // A JSON output becomes text: the view carries its disclosure note after the JSON.
        rebuild: (view) => ({ type, value: view }),
      };
    }
    case 'content': {
      // MCP tools (`@ai-sdk/mcp`) answer with content parts. Their text parts are compacted as
      // one text in the place of the first; images and files pass through.
      const parts = output.value as ReadonlyArray<{ type: string }>;
      const texts = parts.filter((part): part is TextPart => part.type === 'text');
      if (texts.length === 0) return undefined;
      return {
        text: texts.map((part) => part.text).join('\n'),
        rebuild: (view) => {
          let placed = false;
          const value = parts.flatMap((part) => {
            if (part.type !== 'text') return [part];
            if (placed) return [];
            placed = true;
            return [{ ...part, text: view }];
          });
          return { ...output, value };
        },
      };
    }
    default:
      return undefined;
  }
}

/**
 * The prompt transform behind both middleware versions: every tool result over
 * `maxResultBytes` is replaced by its view, computed once per tool call and content and reused
 * byte for byte on later calls. Everything else is passed on as it came.
 */
export function createToolResultCompaction(
  settings: CompactionMiddlewareSettings,
): <Prompt extends AiSdkPrompt>(
  prompt: Prompt,
  signal: AbortSignal | undefined,
) => Promise<Prompt> {
  const views = createToolResultViews(settings);

  const compactPart = async (
    part: ToolResultPart,
    query: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<{ part: ToolResultPart; event?: CompactedToolResult }> => {
    const output = outputText(part.output);
    if (!output) return { part };
    const view = await views.view({
      toolCallId: part.toolCallId,
      toolName: part.toolName,
      text: output.text,
      ...(query ? { userQuery: query } : {}),
      ...(signal ? { signal } : {}),
    });
    if (!view) return { part };
    return {
      part: { ...part, output: output.rebuild(view.processed.text) },
      event: {
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        processed: view.processed,
        reused: view.reused,
      },
    };
  };

  return async <Prompt extends AiSdkPrompt>(prompt: Prompt, signal: AbortSignal | undefined) => {
    const messages = prompt as unknown as readonly PromptMessage[];
    const query = settings.userQuery ? settings.userQuery(prompt) : latestUserText(messages);
    // Views are computed concurrently; events are reported afterwards, in prompt order, so a
    // listener sees the same sequence on every run.
    const events: CompactedToolResult[] = [];
    const compacted = await Promise.all(
      messages.map(async (message) => {
        if (message.role !== 'tool' || typeof message.content === 'string') {
          return { message, events: [] };
        }
        const parts = await Promise.all(
          message.content.map((part) =>
            part.type === 'tool-result'
              ? compactPart(part as ToolResultPart, query, signal)
              : { part, event: undefined },
          ),
        );
        return {
          message: { ...message, content: parts.map((entry) => entry.part) },
          events: parts.flatMap((entry) => (entry.event ? [entry.event] : [])),
        };
      }),
    );
    for (const entry of compacted) events.push(...entry.events);
    if (settings.onCompacted) for (const event of events) settings.onCompacted(event);
    return compacted.map((entry) => entry.message) as unknown as Prompt;
  };
}
