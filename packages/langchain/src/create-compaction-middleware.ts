import {
  ARTIFACT_TOOL_NAMES,
  type ArchivedResult,
  type ArtifactToolset,
  type CompactedToolResult,
  type ConversationBudgetSettings,
  type ConversationReport,
  type ConversationToolResult,
  createConversationBudget,
  createToolResultViews,
  InvalidArgumentError,
  type ResultProcessor,
} from '@compaction/core';
import { type AgentMiddleware, type BaseMessage, createMiddleware, ToolMessage } from 'langchain';
import { createArtifactTools } from './create-artifact-tools.js';

/** Settings of `createCompactionMiddleware`. */
export interface CompactionMiddlewareSettings {
  /**
   * Turns one oversized tool result into what the model sees: `compaction.synthesisProcessor`,
   * `createStructuralTrimmer()`, `createArtifactMode(…).processor`, or your own. Required.
   */
  processor: ResultProcessor;
  /** Tool results larger than this many UTF-8 bytes are compacted to it. Default 65536. */
  maxResultBytes?: number;
  /**
   * Tools the middleware registers with the agent, answered from the store:
   * `createArtifactMode(…).tools` adds `artifact_read` and `artifact_search`. Their own
   * results are never compacted (without them, results of tools so named are not either).
   * Default none.
   */
  tools?: ArtifactToolset;
  /** Called for every compacted tool result. */
  onCompacted?: (result: CompactedToolResult) => void;
  /**
   * What a tool that throws becomes. LangChain's agent turns a tool's error into an error
   * `ToolMessage` the model can correct, but stops doing so for every tool as soon as any
   * middleware wraps tool calls, which this one must. `'message'` (the default) keeps the
   * agent's behaviour without middleware: `Error: …\n Please fix your mistakes.`, status
   * `error`; an interrupt, a cancelled run and another middleware's own failure still throw.
   * `'throw'` lets every error through, as LangChain does with wrapping middleware.
   */
  toolErrors?: 'message' | 'throw';
  /** Views kept for reuse, least recently used dropped first. Default 1000. */
  maxCachedResults?: number;
  /**
   * The conversation budget (issue 41), as in the AI SDK middleware: before each model call,
   * the tool messages it is given (already views) are held together to a total
   * (`COMPACTION_CONVERSATION_MAX_BYTES`, 128 KiB by default, or tokens, or a share of
   * `contextWindowTokens`); once a call takes them over it, older ones step down to a small
   * view, then to one pointer line, newest and failed ones last, so earlier messages stay
   * byte-identical between step-downs. Only the model's request changes; the agent's state
   * keeps the views. Give `createArtifactMode(…).conversation` so pointers name an artifact
   * `artifact_read` reads back: the tool's whole result, archived when the tool returned, even
   * where the state holds a view of it. `false` turns it
   * off. Default: on, from the `COMPACTION_CONVERSATION_*` variables, without archive or digest.
   */
  conversation?: ConversationBudgetSettings | false;
  /**
   * Called once per model call with what the conversation budget did: totals, step-downs,
   * and bytes and tokens saved (`saved`, per call and in total).
   */
  onConversation?: (report: ConversationReport) => void;
}

/**
 * The error `ToolMessage` LangChain's agent makes of a tool's error when no middleware wraps
 * tool calls, or `undefined` for what must propagate: a graph interrupt (human in the loop) or
 * any other bubble-up, and another middleware's own failure.
 */
function toolErrorMessage(
  error: unknown,
  call: { id?: string | undefined; name: string },
): ToolMessage | undefined {
  const marked = (typeof error === 'object' && error !== null ? error : {}) as {
    is_bubble_up?: unknown;
    '~brand'?: unknown;
  };
  if (marked.is_bubble_up === true || marked['~brand'] === 'MiddlewareError') return undefined;
  return new ToolMessage({
    content:
      marked['~brand'] === 'ToolInvocationError'
        ? (error as Error).message
        : `${String(error)}\n Please fix your mistakes.`,
    tool_call_id: call.id ?? '',
    name: call.name,
    status: 'error',
  });
}

type Content = ToolMessage['content'];

function latestUserText(messages: readonly BaseMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.type !== 'human') continue;
    const text = message.text;
    if (text) return text;
  }
  return undefined;
}

/** The text of a tool message's content, and how to put a view of it in its place. */
function contentText(
  content: Content,
): { text: string; rebuild: (view: string) => Content } | undefined {
  if (typeof content === 'string') return { text: content, rebuild: (view) => view };
  const texts = content.filter(
    (block): block is { type: 'text'; text: string } =>
      block.type === 'text' && typeof (block as { text?: unknown }).text === 'string',
  );
  if (texts.length === 0) return undefined;
  return {
    text: texts.map((block) => block.text).join('\n'),
    // The text blocks become one, in the place of the first; images and files stay.
    rebuild: (view) => {
      let placed = false;
      return content.flatMap((block) => {
        if (block.type !== 'text') return [block];
        if (placed) return [];
        placed = true;
        return [{ ...block, text: view }];
      }) as Content;
    },
  };
}

/**
 * Where the middleware records, in a compacted `ToolMessage`'s `response_metadata`, the stored
 * full result its view stands for, so a stepped-down pointer names the full result (and a
 * checkpointed or restarted agent still knows it). Never sent to the model.
 */
const STORED_KEY = 'compaction_stored';

function storedOf(message: ToolMessage): ArchivedResult | undefined {
  const value = (message.response_metadata as Record<string, unknown> | undefined)?.[STORED_KEY];
  if (typeof value !== 'object' || value === null) return undefined;
  const { artifactId, sha256, bytes } = value as Record<string, unknown>;
  return typeof artifactId === 'string' &&
    typeof sha256 === 'string' &&
    Number.isSafeInteger(bytes) &&
    (bytes as number) >= 0
    ? { artifactId, sha256, bytes: bytes as number }
    : undefined;
}

/** The message with `content` in place of its own; id, name, status and artifact kept. */
function withContent(message: ToolMessage, content: Content, stored?: ArchivedResult): ToolMessage {
  return new ToolMessage({
    content,
    tool_call_id: message.tool_call_id,
    ...(message.name === undefined ? {} : { name: message.name }),
    ...(message.id === undefined ? {} : { id: message.id }),
    ...(message.status === undefined ? {} : { status: message.status }),
    ...(message.artifact === undefined ? {} : { artifact: message.artifact }),
    additional_kwargs: message.additional_kwargs,
    response_metadata: stored
      ? { ...message.response_metadata, [STORED_KEY]: { ...stored } }
      : message.response_metadata,
  });
}

/** A LangGraph `Command` (told by its `lg_name`, so this package needs no LangGraph import). */
interface CommandLike {
  lg_name: 'Command';
  update?: unknown;
}

function isCommand(value: unknown): value is CommandLike {
  return (
    typeof value === 'object' && value !== null && (value as CommandLike).lg_name === 'Command'
  );
}

/**
 * The command with each `ToolMessage` of its update's `messages` compacted (an update given as
 * an object or as `[key, value]` pairs); everything else in the command stays as it was.
 */
async function compactCommand<C extends CommandLike>(
  command: C,
  compact: (message: ToolMessage) => Promise<ToolMessage>,
): Promise<C> {
  const messages = async (value: unknown) =>
    Array.isArray(value)
      ? Promise.all(
          value.map((item: unknown) => (ToolMessage.isInstance(item) ? compact(item) : item)),
        )
      : ToolMessage.isInstance(value)
        ? compact(value)
        : value;
  const { update } = command;
  let next: unknown = update;
  if (Array.isArray(update)) {
    next = await Promise.all(
      update.map(async (pair: unknown) =>
        Array.isArray(pair) && pair[0] === 'messages'
          ? ['messages', await messages(pair[1])]
          : pair,
      ),
    );
  } else if (typeof update === 'object' && update !== null && 'messages' in update) {
    next = { ...update, messages: await messages((update as { messages: unknown }).messages) };
  }
  if (next === update) return command;
  // The same class and fields (goto, graph, resume), with the compacted update.
  return Object.assign(Object.create(Object.getPrototypeOf(command)), command, { update: next });
}

/**
 * A LangChain agent middleware (`createAgent({ middleware: [createCompactionMiddleware(…)] })`)
 * that compacts each tool result over `maxResultBytes` as the tool returns it, so the
 * `ToolMessage` in the agent's state, in every later model call and in checkpoints is the view
 * (disclosure notes included), never the raw payload. The message keeps its `tool_call_id`,
 * name, status and artifact, so tool-call pairing is intact. A `Command` result keeps its
 * goto, graph and resume; the `ToolMessage`s in its update's `messages` are compacted the same way.
 */
export function createCompactionMiddleware(
  settings: CompactionMiddlewareSettings,
): AgentMiddleware {
  const views = createToolResultViews(settings);
  if (
    settings.toolErrors !== undefined &&
    settings.toolErrors !== 'message' &&
    settings.toolErrors !== 'throw'
  ) {
    throw new InvalidArgumentError({
      argument: 'toolErrors',
      message: `toolErrors must be 'message' or 'throw', got ${String(settings.toolErrors)}`,
    });
  }
  const own = new Set(
    settings.tools?.definitions.map((definition) => definition.name) ?? ARTIFACT_TOOL_NAMES,
  );
  const budget = createConversationBudget(
    views,
    settings.conversation === false
      ? { enabled: false }
      : { maxCachedResults: settings.maxCachedResults, ...settings.conversation },
  );
  const archive =
    settings.conversation === false || !budget.resolved.enabled
      ? undefined
      : settings.conversation?.archive;
  return createMiddleware({
    name: 'CompactionMiddleware',
    tools: settings.tools ? createArtifactTools(settings.tools) : [],
    wrapModelCall: async (request, handler) => {
      if (!budget.resolved.enabled) return handler(request);
      const { messages } = request;
      const located: Array<{
        index: number;
        message: ToolMessage;
        content: NonNullable<ReturnType<typeof contentText>>;
        result: ConversationToolResult;
      }> = [];
      const names = new Map<string, string>();
      let turn = 0;
      let userText: string | undefined;
      messages.forEach((message, index) => {
        if (message.type === 'ai') {
          turn++;
          for (const call of (message as { tool_calls?: Array<{ id?: string; name: string }> })
            .tool_calls ?? [])
            if (call.id) names.set(call.id, call.name);
        }
        if (message.type === 'human') userText = message.text || userText;
        if (!ToolMessage.isInstance(message)) return;
        const content = contentText(message.content);
        if (!content) return;
        const toolName = message.name ?? names.get(message.tool_call_id) ?? 'tool';
        const stored = storedOf(message);
        located.push({
          index,
          message,
          content,
          result: {
            toolCallId: message.tool_call_id,
            toolName,
            turn,
            text: content.text,
            ...(message.status === 'error' ? { failed: true } : {}),
            ...(own.has(toolName) ? { artifactRead: true } : {}),
            ...(userText ? { userQuery: userText } : {}),
            ...(stored ? { stored } : {}),
          },
        });
      });
      const signal = request.runtime.signal;
      const outcome = await budget.fit(
        located.map((entry) => entry.result),
        signal ? { signal } : {},
      );
      settings.onConversation?.(outcome.report);
      const replaced = new Map<number, ToolMessage>();
      located.forEach((entry, i) => {
        const text = outcome.texts[i]!;
        if (text !== entry.content.text)
          replaced.set(entry.index, withContent(entry.message, entry.content.rebuild(text)));
      });
      if (replaced.size === 0) return handler(request);
      return handler({
        ...request,
        messages: messages.map((message, index) => replaced.get(index) ?? message),
      });
    },
    wrapToolCall: async (request, handler) => {
      let result: Awaited<ReturnType<typeof handler>>;
      try {
        result = await handler(request);
      } catch (error) {
        if (settings.toolErrors === 'throw' || request.runtime.signal?.aborted) throw error;
        const message = toolErrorMessage(error, request.toolCall);
        if (!message) throw error;
        result = message;
      }
      if (own.has(request.toolCall.name)) return result;
      const compact = async (message: ToolMessage): Promise<ToolMessage> => {
        const content = contentText(message.content);
        if (!content) return message;
        const query = latestUserText(request.state.messages);
        const view = await views.view({
          toolCallId: message.tool_call_id,
          toolName: request.toolCall.name,
          text: content.text,
          ...(query ? { userQuery: query } : {}),
          ...(request.runtime.signal ? { signal: request.runtime.signal } : {}),
        });
        if (!view) return message;
        settings.onCompacted?.({
          toolCallId: message.tool_call_id,
          toolName: request.toolCall.name,
          processed: view.processed,
          reused: view.reused,
        });
        // The full result is stored now (artifact mode's processor stored it under the same
        // call id, so this finds that artifact), so a later pointer can name it.
        const stored = archive
          ? await archive
              .archive({
                toolCallId: message.tool_call_id,
                toolName: request.toolCall.name,
                text: content.text,
                ...(view.digest ? { contentDigest: view.digest } : {}),
                ...(request.runtime.signal ? { signal: request.runtime.signal } : {}),
              })
              .catch(() => undefined)
          : undefined;
        return withContent(message, content.rebuild(view.processed.text), stored);
      };
      if (ToolMessage.isInstance(result)) return compact(result);
      return isCommand(result) ? compactCommand(result, compact) : result;
    },
  });
}
