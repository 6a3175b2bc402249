import {
  ARTIFACT_TOOL_NAMES,
  type ArtifactToolset,
  type CompactedToolResult,
  type ConversationBudgetSettings,
  type ConversationReport,
  type ConversationToolResult,
  createConversationBudget,
  createToolResultViews,
  MIN_TRIM_BUDGET_BYTES,
  type ResultProcessor,
  type ToolResultViews,
  utf8ByteLength,
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
  /**
   * The query a tool output's view is conditioned on, given the input before (not including)
   * that output. Default: the text of the latest user message before it. Taken from before the
   * output, it is the same on every later call and after a restart, so the input stays
   * byte-stable for prompt caching.
   */
  userQuery?: (input: ModelInputData['input']) => string | undefined;
  /** Called for every compacted tool output of every model call. */
  onCompacted?: (result: CompactedToolResult) => void;
  /**
   * The artifact tools given to the agent (`createArtifactMode(…).tools`, offered through
   * `createArtifactTools`): their answers, pages and matches of a stored output, are never
   * compacted, since storing a page of an artifact as another artifact helps no one. Without
   * it, outputs of tools named `artifact_read` and `artifact_search` (`ARTIFACT_TOOL_NAMES`)
   * are treated so.
   */
  tools?: ArtifactToolset;
  /**
   * The conversation budget (issue 41), as in the AI SDK middleware: the function tool outputs
   * of one model input together are held to a total (`COMPACTION_CONVERSATION_MAX_BYTES`, 128
   * KiB by default, or tokens, or a share of `contextWindowTokens`); once a call takes them over
   * it, older outputs step down to a small view, then to one pointer line, newest and failed
   * ones last, so earlier items stay byte-identical between step-downs. Give
   * `createArtifactMode(…).conversation` so pointers name an artifact `artifact_read` reads
   * back. A shell call's output counts as one result (its texts labelled and joined); stepped
   * down, its small view or pointer line takes the first command's stdout. `false` turns it
   * off. Default: on, from the `COMPACTION_CONVERSATION_*` variables, without archive or digest.
   */
  conversation?: ConversationBudgetSettings | false;
  /**
   * Called once per model call with what the conversation budget did: totals, step-downs,
   * and bytes and tokens saved (`saved`, per call and in total).
   */
  onConversation?: (report: ConversationReport) => void;
}

type InputItem = ModelInputData['input'][number];
type CallResult = Extract<InputItem, { type: 'function_call_result' }>;
type Output = CallResult['output'];
type ShellResult = Extract<InputItem, { type: 'shell_call_output' }>;

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
 * Budgets for texts of `sizes` UTF-8 bytes that share `budget`: a text within an equal share of
 * what is left keeps its size, the others split the rest equally (smallest first, so short
 * outputs are never cut to make room for long ones). `undefined` when the long ones would get
 * less than the smallest budget a trim takes.
 */
export function shareBudget(sizes: readonly number[], budget: number): number[] | undefined {
  const shares = [...sizes];
  const order = sizes.map((_, index) => index).sort((a, b) => sizes[a]! - sizes[b]! || a - b);
  let left = budget;
  for (let k = 0; k < order.length; k++) {
    const fair = Math.floor(left / (order.length - k));
    const index = order[k]!;
    if (sizes[index]! <= fair) {
      left -= sizes[index]!;
      continue;
    }
    if (fair < MIN_TRIM_BUDGET_BYTES) return undefined;
    for (let j = k; j < order.length; j++) shares[order[j]!] = fair;
    break;
  }
  return shares;
}

/** A command of the call timed out or exited with a non-zero code. */
function shellFailed(item: ShellResult): boolean {
  return item.output.some(
    ({ outcome }) =>
      outcome?.type === 'timeout' ||
      (outcome?.type === 'exit' && outcome.exitCode !== null && outcome.exitCode !== 0),
  );
}

/** A shell call's output as one text: each command's stdout and stderr under a label line. */
function joinShellOutput(item: ShellResult): string {
  return item.output
    .map(
      (entry, i) =>
        `[command ${i + 1} stdout]\n${entry.stdout}\n[command ${i + 1} stderr]\n${entry.stderr}`,
    )
    .join('\n');
}

/**
 * A shell call's output (stdout and stderr per command) with every text over its share of
 * `maxResultBytes` replaced by its view; the outcomes stay. With so many long texts that a
 * share would be too small to trim, they are viewed as one text, in the first command's stdout.
 */
async function compactShellOutput(
  item: ShellResult,
  views: ToolResultViews,
  query: string | undefined,
  report: (event: CompactedToolResult) => void,
): Promise<ShellResult> {
  const texts = item.output.flatMap((entry) => [entry.stdout, entry.stderr]);
  const sizes = texts.map((text) => utf8ByteLength(text));
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total <= views.maxResultBytes) return item;
  const shares = shareBudget(sizes, views.maxResultBytes);
  // Views are made concurrently and reported afterwards in text order (see the filter).
  const made: Array<CompactedToolResult | undefined> = [];
  const view = async (text: string, index: number, maxBytes: number) => {
    const toolCallId = `${item.callId}#${index}`;
    const result = await views.view({
      toolCallId,
      toolName: 'shell',
      text,
      maxBytes,
      ...(query ? { userQuery: query } : {}),
    });
    if (!result) return text;
    made[index] = { toolCallId, toolName: 'shell', ...result };
    return result.processed.text;
  };
  const reportAll = () => {
    for (const event of made) if (event) report(event);
  };
  if (!shares) {
    const one = await view(joinShellOutput(item), 0, views.maxResultBytes);
    reportAll();
    return {
      ...item,
      output: item.output.map((entry, i) => ({ ...entry, stdout: i === 0 ? one : '', stderr: '' })),
    };
  }
  const viewed = await Promise.all(
    texts.map((text, index) =>
      sizes[index]! > shares[index]! ? view(text, index, shares[index]!) : text,
    ),
  );
  reportAll();
  return {
    ...item,
    output: item.output.map((entry, i) => ({
      ...entry,
      stdout: viewed[2 * i]!,
      stderr: viewed[2 * i + 1]!,
    })),
  };
}

/**
 * A `callModelInputFilter` for the OpenAI Agents SDK (`run(agent, input, {
 * callModelInputFilter })` or `new Runner({ callModelInputFilter })`): before every model call
 * it replaces each function tool output over `maxResultBytes` with its compacted view,
 * disclosure notes included, and a shell call's output (stdout and stderr of each command)
 * to the same budget in all, each text over its share replaced by its view. A view is computed
 * once per tool call and content and reused on every later turn, so the input stays
 * byte-stable for prompt caching. Everything else passes through.
 */
export function createCompactionInputFilter(
  settings: CompactionInputFilterSettings,
): CallModelInputFilter {
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
  return async ({ modelData }) => {
    const items = modelData.input;
    const located: Array<{
      index: number;
      /** How the fitted text goes back in place of the item. */
      rebuild: (text: string) => InputItem;
      /** The text the item stands for now: unchanged when the fitted text is this. */
      same: string;
      result: ConversationToolResult;
    }> = [];
    const shellItems: Array<{ index: number; item: ShellResult; turn: number }> = [];
    const queries: Array<string | undefined> = [];
    let turn = 0;
    let modelSpoke = false;
    let userText: string | undefined;
    items.forEach((item, index) => {
      const query = settings.userQuery ? settings.userQuery(items.slice(0, index)) : userText;
      queries[index] = query;
      if ('role' in item && item.role === 'user') {
        userText = latestUserText([item]) ?? userText;
        modelSpoke = false;
        return;
      }
      const isOutput =
        item.type === 'function_call_result' ||
        (typeof item.type === 'string' && /_(output|result)$/.test(item.type));
      if (!isOutput) {
        // The items of one model response (messages, reasoning, calls) are one turn.
        if (!modelSpoke) turn++;
        modelSpoke = true;
        return;
      }
      modelSpoke = false;
      if (item.type === 'shell_call_output') {
        shellItems.push({ index, item, turn });
        return;
      }
      if (item.type !== 'function_call_result') return;
      const output = outputText(item.output);
      if (!output) return;
      located.push({
        index,
        rebuild: (text) => ({ ...item, output: output.rebuild(text) }),
        same: output.text,
        result: {
          toolCallId: item.callId,
          toolName: item.name,
          turn,
          text: output.text,
          ...(item.status === 'incomplete' ? { failed: true } : {}),
          ...(own.has(item.name) ? { artifactRead: true } : {}),
          ...(query ? { userQuery: query } : {}),
        },
      });
    });
    // Views are computed concurrently; events are reported afterwards, in input order, so a
    // listener sees the same sequence on every run.
    const events: CompactedToolResult[][] = [];
    // A shell call's output is first viewed text by text within its shares of the per-result
    // budget, then counted in the conversation as one result: its texts labelled and joined.
    // Stepped down, its small view or pointer takes the first command's stdout.
    const shells = await Promise.all(
      shellItems.map(({ index, item }) => {
        const found: CompactedToolResult[] = [];
        events[index] = found;
        return compactShellOutput(item, views, queries[index], (event) => found.push(event));
      }),
    );
    shellItems.forEach(({ index, item, turn: shellTurn }, k) => {
      const viewed = shells[k]!;
      const text = joinShellOutput(item);
      const view = viewed === item ? undefined : joinShellOutput(viewed);
      const query = queries[index];
      located.push({
        index,
        rebuild: (fitted) =>
          fitted === view
            ? viewed
            : {
                ...item,
                output: item.output.map((entry, i) => ({
                  ...entry,
                  stdout: i === 0 ? fitted : '',
                  stderr: '',
                })),
              },
        same: text,
        result: {
          toolCallId: item.callId,
          toolName: 'shell',
          turn: shellTurn,
          text,
          ...(view === undefined ? {} : { view }),
          ...(shellFailed(item) ? { failed: true } : {}),
          ...(query ? { userQuery: query } : {}),
        },
      });
    });
    located.sort((a, b) => a.index - b.index);
    const outcome = await budget.fit(located.map((entry) => entry.result));
    const replaced = new Map<number, InputItem>();
    located.forEach((entry, i) => {
      const view = outcome.views[i];
      if (view) {
        events[entry.index] = [
          {
            toolCallId: entry.result.toolCallId,
            toolName: entry.result.toolName,
            processed: view.processed,
            reused: view.reused,
          },
        ];
      }
      const text = outcome.texts[i]!;
      if (text !== entry.same) replaced.set(entry.index, entry.rebuild(text));
    });
    if (settings.onCompacted) {
      for (const found of events) for (const event of found ?? []) settings.onCompacted(event);
    }
    settings.onConversation?.(outcome.report);
    const input = items.map((item, index) => replaced.get(index) ?? item);
    return { ...modelData, input };
  };
}
