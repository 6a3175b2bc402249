import {
  ANTHROPIC_ARTIFACT_TOOLS,
  countGraphemes,
  createArtifactIndex,
  externalizeToolOutput,
  OPENAI_ARTIFACT_TOOLS,
  type ToolOutput,
} from '@compaction/artifacts';
import {
  assertSize,
  type ConversationBudgetOptions,
  type ConversationReport,
  createConversationBudget,
  InvalidArgumentError,
  losslessMetadata,
  type ResultProcessor,
  resolveConfig,
  type ToolResultView,
  utf8ByteLength,
} from '@compaction/core';
import { createStructuralTrimmer, describeResult } from '@compaction/trimmer';
import { boundByDeadline } from './bound-by-deadline.js';
import { storeWithView } from './create-artifact-mode.js';
import { createResultArchive } from './create-result-archive.js';
import { createSynthesisArtifacts } from './create-synthesis-artifacts.js';
import { requireTranscriptPath } from './require-transcript-path.js';

/** Settings of `createToolResultHelper`. */
export interface ToolResultHelperSettings {
  /** The session transcript; full outputs go to `<stem>.artifacts/` beside it. Required. */
  transcriptPath: string;
  /**
   * How an oversized output is shown. Without a processor: the matching projection policy of
   * seed 001 (an excerpt, the command and its exit code, …) with pointer lines. With one (say
   * `compaction.synthesisProcessor`): its view within `maxResultBytes`, under a marker line.
   */
  processor?: ResultProcessor;
  /** Budget of a processor view (pointer line included), in UTF-8 bytes. Default 16384. `COMPACTION_ARTIFACT_VIEW_MAX_BYTES`. */
  maxResultBytes?: number;
  /** Outputs up to this many chars stay inline. Default 4000. `COMPACTION_ARTIFACT_INLINE_LIMIT`. */
  inlineLimitChars?: number;
  /** Environment to read `COMPACTION_*` from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Milliseconds since the epoch, for index records. Default `Date.now`. */
  clock?: () => number;
  /**
   * The conversation budget `conversation()` holds the tool results of a whole loop to (issue
   * 41; `COMPACTION_CONVERSATION_*`, 128 KiB by default). Stepped-down results are stored in
   * this helper's artifact store, so their pointers resolve with `dispatch('artifact_read', …)`.
   * `false` turns it off (`conversation()` then gives each result's `content`).
   */
  conversation?: ConversationBudgetOptions | false;
  /**
   * Called once per `conversation()` call with what the budget did, bytes and tokens saved
   * included (`saved`, per call and in total).
   */
  onConversation?: (report: ConversationReport) => void;
}

/** One tool result of a loop's conversation, for `ToolResultHelper.conversation`. */
export interface ConversationToolOutput extends ToolOutput {
  /**
   * The model turn whose response asked for this call: the index of the assistant message (or
   * response) among the loop's, the same for the calls of one response. Never decreasing.
   */
  turn: number;
  /** The question its view is conditioned on. Default the `userQuery` option of the call. */
  userQuery?: string;
}

/** What to send back to the model for one tool call. */
export interface ToolResultContent {
  /** The tool message content. */
  content: string;
  /** True when `content` is not the whole output. */
  contentLost: boolean;
  /** The artifact holding the whole output, when it was stored. */
  artifactId?: string;
}

/** Tool-loop glue for the OpenAI and Anthropic SDKs. */
export interface ToolResultHelper {
  /** The artifact tools in OpenAI chat-completions `tools` form. Add them to every request. */
  readonly openaiTools: typeof OPENAI_ARTIFACT_TOOLS;
  /** The artifact tools in Anthropic Messages `tools` form. */
  readonly anthropicTools: typeof ANTHROPIC_ARTIFACT_TOOLS;
  /** Where full outputs are stored: `<transcript-stem>.artifacts/`. */
  readonly artifactsDir: string;
  /** The content to send for one tool result: inline when small, else stored and projected. */
  content(
    output: ToolOutput,
    options?: { userQuery?: string; signal?: AbortSignal },
  ): Promise<ToolResultContent>;
  /**
   * The contents to send for every tool result of a conversation, in order, held together to
   * the conversation budget: each is its `content` until the results outgrow the budget; then
   * older ones step down to a small view, then to one pointer line (naming the stored artifact,
   * its size and sha256; the sha256 is dropped at the next step-down), newest and failed ones
   * last, answers of `artifact_read` never compacted. Earlier contents change only when the
   * budget is crossed, then leaving `clearAtLeastPercent` of it free, and depend only on
   * `outputs`: send them as given on every request.
   */
  conversation(
    outputs: readonly ConversationToolOutput[],
    options?: { userQuery?: string; signal?: AbortSignal },
  ): Promise<ToolResultContent[]>;
  /** True for `artifact_read` and `artifact_search`, which `dispatch` answers. */
  handles(name: string): boolean;
  /** Answers an artifact tool call from the store (`args` as an object or the JSON text the SDK gives). */
  dispatch(name: string, args: unknown, options?: { signal?: AbortSignal }): Promise<string>;
}

/**
 * One object for a hand-written tool loop on the OpenAI or Anthropic SDK: it turns each tool
 * result into the message content to send (the whole output when it fits the inline limit;
 * otherwise the full bytes are stored beside the transcript and the model gets an excerpt or a
 * processor view with the artifact's id), and it answers the `artifact_read` /
 * `artifact_search` calls the model makes to get more.
 */
export function createToolResultHelper(settings: ToolResultHelperSettings): ToolResultHelper {
  const transcriptPath = requireTranscriptPath(settings?.transcriptPath, 'createToolResultHelper');
  const config = resolveConfig({ env: settings.env ?? process.env });
  const artifacts = createSynthesisArtifacts({
    transcriptPath,
    ...(settings.clock ? { clock: settings.clock } : {}),
  });
  const index = createArtifactIndex({ dir: artifacts.dir });
  const inlineLimitChars = assertSize(
    settings.inlineLimitChars ?? config.artifacts.inlineLimitChars,
    'inlineLimitChars',
    { min: 1 },
  );
  const maxResultBytes = assertSize(
    settings.maxResultBytes ?? config.artifacts.viewMaxBytes,
    'maxResultBytes',
    { min: 1 },
  );

  // The view is bounded by the compaction deadline, which synchronous work sees as shouldStop.
  const processor = settings.processor
    ? boundByDeadline(settings.processor, { deadlineMs: config.distill.deadlineMs })
    : undefined;

  const content = async (
    output: ToolOutput,
    options: { userQuery?: string; signal?: AbortSignal } = {},
  ): Promise<ToolResultContent> => {
    if (!processor) {
      const externalized = await externalizeToolOutput(output, {
        sessionId: artifacts.sessionId,
        store: artifacts.store,
        index,
        inlineLimitChars,
        ...(settings.clock ? { clock: settings.clock } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return {
        content: externalized.content,
        contentLost: externalized.contentLost,
        ...(externalized.artifact ? { artifactId: externalized.artifact.id } : {}),
      };
    }
    // Chars are grapheme clusters, as everywhere in the artifact store; a string no longer
    // than the limit in UTF-16 units fits without counting.
    const text = output.output;
    if (text.length <= inlineLimitChars || countGraphemes(text) <= inlineLimitChars) {
      return { content: output.output, contentLost: false };
    }
    const view = await storeWithView(artifacts, processor, text, maxResultBytes, {
      toolName: output.toolName,
      stepId: output.toolCallId,
      ...(options.userQuery ? { userQuery: options.userQuery } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return {
      content: view.text,
      contentLost: view.metadata.contentLost,
      ...(view.artifactId ? { artifactId: view.artifactId } : {}),
    };
  };

  // The conversation budget sees each result's `content` as its per-result view, and a view of
  // `smallViewBytes` under the artifact marker as its small view. Both are remembered by tool
  // call id while the output and question stay the same (the store is written once).
  const smallProcessor = processor ?? createStructuralTrimmer();
  const latest = new Map<string, ConversationToolOutput>();
  const remembered = new Map<
    string,
    {
      text: string;
      userQuery: string | undefined;
      view: Promise<{ view?: ToolResultView; content: ToolResultContent }>;
    }
  >();
  const viewOf = (
    key: string,
    text: string,
    userQuery: string | undefined,
    make: () => Promise<{ view?: ToolResultView; content: ToolResultContent }>,
  ) => {
    const known = remembered.get(key);
    if (known && known.text === text && known.userQuery === userQuery) return known.view;
    const view = make();
    remembered.set(key, { text, userQuery, view });
    view.catch(() => remembered.delete(key));
    while (remembered.size > 2000) remembered.delete(remembered.keys().next().value!);
    return view;
  };
  const asView = (text: string, made: ToolResultContent): ToolResultView | undefined =>
    made.content === text
      ? undefined
      : {
          processed: {
            text: made.content,
            metadata: { ...losslessMetadata(text, made.content), contentLost: made.contentLost },
          },
          reused: false,
        };
  const budget = createConversationBudget(
    {
      async view(input) {
        const small = input.maxBytes !== undefined;
        const output = latest.get(input.toolCallId);
        const made = await viewOf(
          `${input.toolCallId}\u0000${small ? 'small' : 'view'}`,
          input.text,
          input.userQuery,
          async () => {
            if (!small && output) {
              const made = await content(output, {
                ...(input.userQuery ? { userQuery: input.userQuery } : {}),
                ...(input.signal ? { signal: input.signal } : {}),
              });
              return { view: asView(input.text, made), content: made };
            }
            const maxBytes = input.maxBytes ?? maxResultBytes;
            if (utf8ByteLength(input.text) <= maxBytes)
              return { content: { content: input.text, contentLost: false } };
            const view = await storeWithView(artifacts, smallProcessor, input.text, maxBytes, {
              stepId: input.toolCallId,
              ...(input.toolName ? { toolName: input.toolName } : {}),
              ...(input.userQuery ? { userQuery: input.userQuery } : {}),
              ...(input.signal ? { signal: input.signal } : {}),
            });
            return {
              view: { processed: view, reused: false },
              content: { content: view.text, contentLost: view.metadata.contentLost },
            };
          },
        );
        return made.view;
      },
    },
    {
      ...(settings.conversation === false ? { enabled: false } : settings.conversation),
      archive: createResultArchive(artifacts),
      describe: (text) => describeResult(text),
      env: settings.env ?? process.env,
    },
  );

  return {
    openaiTools: OPENAI_ARTIFACT_TOOLS,
    anthropicTools: ANTHROPIC_ARTIFACT_TOOLS,
    artifactsDir: artifacts.dir,
    content,
    async conversation(outputs, options = {}) {
      if (!Array.isArray(outputs))
        throw new InvalidArgumentError({
          argument: 'outputs',
          message: 'outputs must be an array',
        });
      const results = outputs.map((output, i) => {
        if (!Number.isSafeInteger(output?.turn))
          throw new InvalidArgumentError({
            argument: 'turn',
            message: `outputs[${i}].turn must be an integer (the model turn that asked for it)`,
          });
        latest.set(output.toolCallId, output);
        const userQuery = output.userQuery ?? options.userQuery;
        return {
          toolCallId: output.toolCallId,
          toolName: output.toolName,
          turn: output.turn,
          text: output.output,
          ...(output.isError ? { failed: true } : {}),
          ...(artifacts.tools.handles(output.toolName) ? { artifactRead: true } : {}),
          ...(userQuery ? { userQuery } : {}),
        };
      });
      const outcome = await budget.fit(results, options.signal ? { signal: options.signal } : {});
      settings.onConversation?.(outcome.report);
      return Promise.all(
        results.map(async (result, i): Promise<ToolResultContent> => {
          const text = outcome.texts[i]!;
          if (outcome.steps[i] === 'view') {
            if (result.artifactRead) return { content: text, contentLost: false };
            const made = await viewOf(
              `${result.toolCallId}\u0000view`,
              result.text,
              result.userQuery,
              async () => ({
                content: await content(outputs[i]!, {
                  ...(result.userQuery ? { userQuery: result.userQuery } : {}),
                  ...(options.signal ? { signal: options.signal } : {}),
                }),
              }),
            );
            return made.content;
          }
          const artifactId = outcome.artifactIds[i];
          return { content: text, contentLost: true, ...(artifactId ? { artifactId } : {}) };
        }),
      );
    },
    handles: (name) => artifacts.tools.handles(name),
    dispatch: (name, args, options) => artifacts.tools.call(name, args, options),
  };
}
