import {
  ARTIFACT_TOOL_NAMES,
  type ArtifactToolset,
  type CompactedToolResult,
  type ConversationBudgetSettings,
  type ConversationReport,
  type ConversationToolResult,
  createConversationBudget,
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
   * The user query a result's view is conditioned on, given the prompt up to (not including)
   * the message that holds the result. Default: the text of the latest user message before it.
   * Taken from before the result, it is the same on every later call and after a restart, so
   * the view, and the prompt prefix, stay byte-stable for prompt caching.
   */
  userQuery?: (prompt: AiSdkPrompt) => string | undefined;
  /** Called for every compacted tool result of every call (for logging and tests). */
  onCompacted?: (result: CompactedToolResult) => void;
  /**
   * The artifact tools given to the model (`createArtifactMode(…).tools`): their answers, pages
   * and matches of a stored result, are never compacted. Without it, results of tools named
   * `artifact_read` and `artifact_search` (`ARTIFACT_TOOL_NAMES`) are treated so.
   */
  tools?: ArtifactToolset;
  /**
   * The conversation budget (issue 41): the tool results of one prompt together are held to a
   * total (`COMPACTION_CONVERSATION_MAX_BYTES`, 128 KiB by default, or tokens, or a share of
   * `contextWindowTokens`); once a call takes them over it, older results step down to a small
   * view, then to one pointer line, newest and failed ones last, so that earlier messages stay
   * byte-identical between step-downs. Give `createArtifactMode(…).conversation` (spread with
   * budget options) so pointers name an artifact `artifact_read` reads back; without an
   * archive the pointer says the result is not retrievable. `false` turns it off. Default: on,
   * from the `COMPACTION_CONVERSATION_*` variables, without archive or digest.
   */
  conversation?: ConversationBudgetSettings | false;
  /**
   * Called once per model call with what the conversation budget did: totals, step-downs,
   * and bytes and tokens saved (`saved`, per call and in total).
   */
  onConversation?: (report: ConversationReport) => void;
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

/** One tool result of the prompt and where it sits. */
interface Located {
  message: number;
  part: number;
  original: ToolResultPart;
  output: NonNullable<ReturnType<typeof outputText>>;
  result: ConversationToolResult;
}

/**
 * The prompt transform behind both middleware versions: every tool result over
 * `maxResultBytes` is replaced by its view (computed once per tool call and content), and the
 * results of the whole prompt are held to the conversation budget. Everything else, the
 * messages and their parts included, is passed on as it came, so tool calls stay paired.
 */
export function createToolResultCompaction(
  settings: CompactionMiddlewareSettings,
): <Prompt extends AiSdkPrompt>(
  prompt: Prompt,
  signal: AbortSignal | undefined,
) => Promise<Prompt> {
  const views = createToolResultViews(settings);
  const own = new Set(
    settings.tools?.definitions.map((definition) => definition.name) ?? ARTIFACT_TOOL_NAMES,
  );
  const budget = createConversationBudget(
    views,
    settings.conversation === false
      ? { enabled: false }
      : { maxCachedResults: settings.maxCachedResults, ...settings.conversation },
  );

  return async <Prompt extends AiSdkPrompt>(prompt: Prompt, signal: AbortSignal | undefined) => {
    const messages = prompt as unknown as readonly PromptMessage[];
    const located: Located[] = [];
    let turn = 0;
    let userText: string | undefined;
    messages.forEach((message, index) => {
      if (message.role === 'assistant') turn++;
      if (message.role === 'user') userText = latestUserText([message]) ?? userText;
      if (message.role !== 'tool' || typeof message.content === 'string') return;
      const query = settings.userQuery
        ? settings.userQuery(messages.slice(0, index) as unknown as AiSdkPrompt)
        : userText;
      message.content.forEach((part, partIndex) => {
        if (part.type !== 'tool-result') return;
        const original = part as ToolResultPart;
        const output = outputText(original.output);
        if (!output) return;
        located.push({
          message: index,
          part: partIndex,
          original,
          output,
          result: {
            toolCallId: original.toolCallId,
            toolName: original.toolName,
            turn,
            text: output.text,
            ...(original.output.type.startsWith('error-') ? { failed: true } : {}),
            ...(own.has(original.toolName) ? { artifactRead: true } : {}),
            ...(query ? { userQuery: query } : {}),
          },
        });
      });
    });
    const outcome = await budget.fit(
      located.map((entry) => entry.result),
      signal ? { signal } : {},
    );

    const replaced = new Map<number, Map<number, ToolResultPart>>();
    located.forEach((entry, i) => {
      const text = outcome.texts[i]!;
      if (text === entry.output.text) return;
      const parts = replaced.get(entry.message) ?? new Map<number, ToolResultPart>();
      parts.set(entry.part, { ...entry.original, output: entry.output.rebuild(text) });
      replaced.set(entry.message, parts);
    });
    // Events are reported in prompt order, so a listener sees the same sequence on every run.
    if (settings.onCompacted) {
      located.forEach((entry, i) => {
        const view = outcome.views[i];
        if (!view) return;
        settings.onCompacted!({
          toolCallId: entry.original.toolCallId,
          toolName: entry.original.toolName,
          processed: view.processed,
          reused: view.reused,
        });
      });
    }
    settings.onConversation?.(outcome.report);
    return messages.map((message, index) => {
      const parts = replaced.get(index);
      if (!parts || typeof message.content === 'string') return message;
      return { ...message, content: message.content.map((part, i) => parts.get(i) ?? part) };
    }) as unknown as Prompt;
  };
}
