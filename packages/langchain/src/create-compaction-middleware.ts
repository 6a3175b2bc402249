import {
  type ArtifactToolset,
  type CompactedToolResult,
  createToolResultViews,
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
   * results are never compacted. Default none.
   */
  tools?: ArtifactToolset;
  /** Called for every compacted tool result. */
  onCompacted?: (result: CompactedToolResult) => void;
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
 * A LangChain agent middleware (`createAgent({ middleware: [createCompactionMiddleware(…)] })`)
 * that compacts each tool result over `maxResultBytes` as the tool returns it, so the
 * `ToolMessage` in the agent's state, in every later model call and in checkpoints is the view
 * (disclosure notes included), never the raw payload. The message keeps its `tool_call_id`,
 * name, status and artifact, so tool-call pairing is intact. `Command` results pass through.
 */
export function createCompactionMiddleware(
  settings: CompactionMiddlewareSettings,
): AgentMiddleware {
  const views = createToolResultViews(settings);
  const own = new Set(settings.tools?.definitions.map((definition) => definition.name) ?? []);
  return createMiddleware({
    name: 'CompactionMiddleware',
    tools: settings.tools ? createArtifactTools(settings.tools) : [],
    wrapToolCall: async (request, handler) => {
      const result = await handler(request);
      if (!ToolMessage.isInstance(result) || own.has(request.toolCall.name)) return result;
      const content = contentText(result.content);
      if (!content) return result;
      const query = latestUserText(request.state.messages);
      const view = await views.view({
        toolCallId: result.tool_call_id,
        toolName: request.toolCall.name,
        text: content.text,
        ...(query ? { userQuery: query } : {}),
        ...(request.runtime.signal ? { signal: request.runtime.signal } : {}),
      });
      if (!view) return result;
      settings.onCompacted?.({
        toolCallId: result.tool_call_id,
        toolName: request.toolCall.name,
        processed: view.processed,
        reused: view.reused,
      });
      return new ToolMessage({
        content: content.rebuild(view.processed.text),
        tool_call_id: result.tool_call_id,
        ...(result.name === undefined ? {} : { name: result.name }),
        ...(result.id === undefined ? {} : { id: result.id }),
        ...(result.status === undefined ? {} : { status: result.status }),
        ...(result.artifact === undefined ? {} : { artifact: result.artifact }),
        additional_kwargs: result.additional_kwargs,
        response_metadata: result.response_metadata,
      });
    },
  });
}
