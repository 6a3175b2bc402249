import {
  ANTHROPIC_ARTIFACT_TOOLS,
  countGraphemes,
  createArtifactIndex,
  externalizeToolOutput,
  OPENAI_ARTIFACT_TOOLS,
  type ToolOutput,
} from '@compaction/artifacts';
import { assertSize, type ResultProcessor, resolveConfig } from '@compaction/core';
import { boundByDeadline } from './bound-by-deadline.js';
import { storeWithView } from './create-artifact-mode.js';
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
  /** Budget of a processor view, in UTF-8 bytes. Default 16384. */
  maxResultBytes?: number;
  /** Outputs up to this many chars stay inline. Default 4000. `COMPACTION_ARTIFACT_INLINE_LIMIT`. */
  inlineLimitChars?: number;
  /** Environment to read `COMPACTION_*` from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Milliseconds since the epoch, for index records. Default `Date.now`. */
  clock?: () => number;
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
  const maxResultBytes = assertSize(settings.maxResultBytes ?? 16_384, 'maxResultBytes', {
    min: 1,
  });

  // The view is bounded by the compaction deadline, which synchronous work sees as shouldStop.
  const processor = settings.processor
    ? boundByDeadline(settings.processor, { deadlineMs: config.distill.deadlineMs })
    : undefined;

  return {
    openaiTools: OPENAI_ARTIFACT_TOOLS,
    anthropicTools: ANTHROPIC_ARTIFACT_TOOLS,
    artifactsDir: artifacts.dir,
    async content(output, options = {}) {
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
    },
    handles: (name) => artifacts.tools.handles(name),
    dispatch: (name, args, options) => artifacts.tools.call(name, args, options),
  };
}
