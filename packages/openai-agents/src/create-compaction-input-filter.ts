import {
  type CompactedToolResult,
  createToolResultViews,
  type ResultProcessor,
} from '@compaction/core';
import type { CallModelInputFilter, ModelInputData } from '@openai/agents';

/** Settings of `createCompactionInputFilter`. */
export interface CompactionInputFilterSettings {
  /**
   * Turns one oversized tool output into what the model sees: `compaction.synthesisProcessor`,
   * `createStructuralTrimmer()`, `createArtifactMode(…).processor`, or your own. Required.
   */
  processor: ResultProcessor;
  /** Tool outputs larger than this many UTF-8 bytes are compacted to it. Default 65536. */
  maxResultBytes?: number;
  /** Views kept for reuse, least recently used dropped first. Default 1000. */
  maxCachedResults?: number;
  /** The query views are conditioned on. Default: the text of the latest user message. */
  userQuery?: (input: ModelInputData['input']) => string | undefined;
  /** Called for every compacted tool output of every model call. */
  onCompacted?: (result: CompactedToolResult) => void;
}

type InputItem = ModelInputData['input'][number];
type CallResult = Extract<InputItem, { type: 'function_call_result' }>;
type Output = CallResult['output'];

function latestUserText(input: readonly InputItem[]): string | undefined {
  for (let i = input.length - 1; i >= 0; i--) {
    const item = input[i]!;
    if (!('role' in item) || item.role !== 'user') continue;
    if (typeof item.content === 'string') return item.content;
    const text = item.content
      .flatMap((part) => (part.type === 'input_text' ? [part.text] : []))
      .join('\n');
    if (text) return text;
  }
  return undefined;
}

/** The text of a tool output, and how to put a view of it in its place. */
function outputText(
  output: Output,
): { text: string; rebuild: (view: string) => Output } | undefined {
  if (typeof output === 'string') return { text: output, rebuild: (view) => view };
  if (!Array.isArray(output)) {
    if (output.type !== 'text') return undefined;
    return { text: output.text, rebuild: (view) => ({ ...output, text: view }) };
  }
  const texts = output.filter((part) => part.type === 'input_text');
  if (texts.length === 0) return undefined;
  return {
    text: texts.map((part) => part.text).join('\n'),
    // The text parts become one, in the place of the first; images and files stay.
    rebuild: (view) => {
      type Part = (typeof output)[number];
      let placed = false;
      return output.flatMap((part): Part[] => {
        if (part.type !== 'input_text') return [part];
        if (placed) return [];
        placed = true;
        return [{ ...part, text: view }];
      });
    },
  };
}

/**
 * A `callModelInputFilter` for the OpenAI Agents SDK (`run(agent, input, {
 * callModelInputFilter })` or `new Runner({ callModelInputFilter })`): before every model call
 * it replaces each function tool output over `maxResultBytes` with its compacted view,
 * disclosure notes included. A view is computed once per tool call and content and reused on
 * every later turn, so the input stays byte-stable for prompt caching. Everything else passes
 * through.
 */
export function createCompactionInputFilter(
  settings: CompactionInputFilterSettings,
): CallModelInputFilter {
  const views = createToolResultViews(settings);
  return async ({ modelData }) => {
    const query = (settings.userQuery ?? latestUserText)(modelData.input);
    // Views are computed concurrently; events are reported afterwards, in input order, so a
    // listener sees the same sequence on every run.
    const events: CompactedToolResult[] = [];
    const input = await Promise.all(
      modelData.input.map(async (item, index) => {
        if (item.type !== 'function_call_result') return item;
        const output = outputText(item.output);
        if (!output) return item;
        const view = await views.view({
          toolCallId: item.callId,
          toolName: item.name,
          text: output.text,
          ...(query ? { userQuery: query } : {}),
        });
        if (!view) return item;
        events[index] = {
          toolCallId: item.callId,
          toolName: item.name,
          processed: view.processed,
          reused: view.reused,
        };
        return { ...item, output: output.rebuild(view.processed.text) };
      }),
    );
    if (settings.onCompacted) for (const event of events) if (event) settings.onCompacted(event);
    return { ...modelData, input };
  };
}
