import {
  artifactFilePointerLine,
  countGraphemes,
  DEFAULT_PROJECTION_POLICIES,
  MIN_INLINE_LIMIT_CHARS,
  OPENAI_ARTIFACT_TOOLS,
  type ProjectionPolicy,
} from '@compaction/artifacts';
import { sha256Hex } from '@compaction/artifacts/internal';
import {
  ARTIFACT_TOOL_NAMES,
  type ArtifactToolset,
  assertSize,
  type ConversationBudgetSettings,
  losslessMetadata,
  type ProcessedResult,
  type ResultProcessor,
  type ResultProcessorContext,
  resolveConfig,
  utf8ByteLength,
} from '@compaction/core';
import {
  createStructuralTrimmer,
  describeResult,
  MIN_TRIM_BUDGET_BYTES,
} from '@compaction/trimmer';
import { createResultArchive } from './create-result-archive.js';
import { createSynthesisArtifacts, type SynthesisArtifacts } from './create-synthesis-artifacts.js';
import { requireTranscriptPath } from './require-transcript-path.js';

/** Settings of `createArtifactMode`. */
export interface ArtifactModeSettings {
  /** The session transcript; full results go to `<stem>.artifacts/` beside it. Required. */
  transcriptPath: string;
  /**
   * What the model sees of a stored result, under the pointer line. Default: the structural
   * trimmer (valid JSON for JSON results, with its disclosure note); `compaction.synthesisProcessor`
   * distills when a model is configured.
   */
  view?: ResultProcessor;
  /** Milliseconds since the epoch, for index records. Default `Date.now`. */
  clock?: () => number;
  /**
   * Seed 001's per-tool inline limit: a result longer than this many characters (grapheme
   * clusters) of a tool whose projection policy stores it is stored and shown as a pointer
   * line and a view within this many bytes, even when it is within the adapter's per-result
   * budget. At least 1000. `false` turns it off (only results over the adapter's budget are
   * stored). Default 4000. `COMPACTION_ARTIFACT_INLINE_LIMIT`.
   */
  inlineLimitChars?: number | false;
  /**
   * The projection policies that decide, by tool name, whether an output over the inline limit
   * is stored (a policy whose `keepInline` says so keeps it whole). First match wins. Default
   * `DEFAULT_PROJECTION_POLICIES` (seed 001's table: every built-in policy stores).
   */
  policies?: readonly ProjectionPolicy[];
  /** Environment to read `COMPACTION_ARTIFACT_INLINE_LIMIT` from. Default `process.env`, read once here. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * What a view's pointer line tells the model to read the rest with: `'artifact-tools'`, the
   * `art_` id for `artifact_read` / `artifact_search` (`tools`); `'file'`, the stored file's
   * absolute path, for an agent that reads files with its own tools (a coding agent behind
   * `compaction proxy`). Default `'artifact-tools'`.
   */
  pointTo?: 'artifact-tools' | 'file';
}

/** Full results stored beside a transcript, a processor that points at them, and the tools to read them. */
export interface ArtifactMode {
  /** The session id (the transcript's file name without its extension). */
  readonly sessionId: string;
  /** Where full results are stored: `<transcript-stem>.artifacts/`. */
  readonly dir: string;
  /**
   * A `ResultProcessor` for any framework adapter: a result within `maxBytes` passes through
   * untouched; a larger one is stored whole (under `context.stepId`, the tool call id) and
   * becomes one pointer line naming its `art_` id followed by the view, `maxBytes` in all. Its
   * `inlineBudget` is the inline limit for the outputs the projection policies store, so the
   * adapters store those too (seed 001).
   */
  readonly processor: ResultProcessor;
  /** `artifact_read` and `artifact_search`, scoped to this session. */
  readonly tools: ArtifactToolset;
  /**
   * What a conversation budget needs to step older results down to pointers that resolve: an
   * `archive` storing each full result here (under its tool call id, so it gets the id the
   * processor's pointer names) and `describe`, the trimmer's one-line digest. Give it to an
   * adapter's `conversation` setting, spread with any budget options.
   */
  readonly conversation: Required<Pick<ConversationBudgetSettings, 'archive' | 'describe'>>;
}

const DEFINITIONS: ArtifactToolset['definitions'] = OPENAI_ARTIFACT_TOOLS.map(
  ({ function: f }) => ({
    name: f.name,
    description: f.description,
    parameters: f.parameters,
  }),
);

/**
 * Stores `result` as an artifact and returns the pointer line followed by `view`'s rendering,
 * at most `maxBytes` in all. When the budget cannot hold the pointer and a useful view, the view
 * alone is returned (the result is still stored). A result that cannot be stored gets the
 * not-stored line instead of the pointer (`storeWithPointer`'s rule); an abort of
 * `context.signal` rejects with its reason.
 */
export async function storeWithView(
  artifacts: SynthesisArtifacts,
  view: ResultProcessor,
  result: string,
  maxBytes: number,
  context: ResultProcessorContext = {},
): Promise<ProcessedResult & { artifactId?: string }> {
  // The store maps an id of any shape to a safe file name and keeps it in the index record, so
  // the tool call id is kept as it is (lookup by operation id then works for every shape).
  const id =
    typeof context.stepId === 'string' && context.stepId !== ''
      ? context.stepId
      : `result-${(context.contentDigest ?? sha256Hex(result)).slice(0, 16)}`;
  const stored = await artifacts.storeStep(
    {
      id,
      status: 'succeeded',
      result,
      ...(context.toolName ? { toolName: context.toolName } : {}),
    },
    {
      ...(context.signal ? { signal: context.signal } : {}),
      // The adapters' view cache hashed the result already: the store does not hash it again.
      ...(context.contentDigest ? { contentDigest: context.contentDigest } : {}),
    },
  );
  const room = maxBytes - utf8ByteLength(stored.line) - 1;
  const artifactId = stored.record ? { artifactId: stored.record.id } : {};
  if (room < MIN_TRIM_BUDGET_BYTES)
    return { ...(await view.process(result, maxBytes, context)), ...artifactId };
  const processed = await view.process(result, room, context);
  const text = `${stored.line}\n${processed.text}`;
  return {
    text,
    metadata: { ...processed.metadata, outputBytes: utf8ByteLength(text) },
    ...artifactId,
  };
}

/**
 * The artifact mode every framework adapter offers: full bytes stored beside the transcript,
 * a pointer and a view in the conversation, and the artifact tools to read the rest. Give
 * `processor` to the adapter and `tools` to its artifact-tool builder.
 */
export function createArtifactMode(settings: ArtifactModeSettings): ArtifactMode {
  const artifacts = createSynthesisArtifacts({
    transcriptPath: requireTranscriptPath(settings?.transcriptPath, 'createArtifactMode'),
    ...(settings.clock ? { clock: settings.clock } : {}),
  });
  const view = settings.view ?? createStructuralTrimmer();
  const inlineLimit =
    settings.inlineLimitChars === false
      ? undefined
      : assertSize(
          settings.inlineLimitChars ??
            resolveConfig({ env: settings.env ?? process.env }).artifacts.inlineLimitChars,
          'inlineLimitChars',
          { min: MIN_INLINE_LIMIT_CHARS },
        );
  const policies = settings.policies ?? DEFAULT_PROJECTION_POLICIES;
  const inlineBudget = ({ toolName, text }: { toolName?: string; text: string }) => {
    // Chars are grapheme clusters, as everywhere in the artifact store; a string no longer
    // than the limit in UTF-16 units fits without counting.
    if (inlineLimit === undefined || text.length <= inlineLimit) return undefined;
    // An artifact tool's page is what the model asked for: never stored again.
    if (toolName === undefined || ARTIFACT_TOOL_NAMES.includes(toolName)) return undefined;
    const policy = policies.find((candidate) => candidate.matches(toolName));
    if (!policy || policy.keepInline?.({ toolName, toolCallId: '', output: text }))
      return undefined;
    return countGraphemes(text) > inlineLimit ? inlineLimit : undefined;
  };
  const pointing: SynthesisArtifacts =
    settings.pointTo === 'file'
      ? {
          ...artifacts,
          async storeStep(step, options) {
            const stored = await artifacts.storeStep(step, options);
            if (!stored.record) return stored;
            const path = artifacts.store.pathOf(stored.record.path);
            return { ...stored, line: artifactFilePointerLine(stored.record, path) };
          },
        }
      : artifacts;
  return {
    sessionId: artifacts.sessionId,
    dir: artifacts.dir,
    processor: {
      async process(result, maxBytes, context = {}) {
        context.signal?.throwIfAborted();
        if (utf8ByteLength(result) <= maxBytes)
          return { text: result, metadata: losslessMetadata(result, result) };
        const { artifactId: _, ...processed } = await storeWithView(
          pointing,
          view,
          result,
          maxBytes,
          context,
        );
        return processed;
      },
      inlineBudget,
    },
    tools: {
      definitions: DEFINITIONS,
      call: (name, args, options) => artifacts.tools.call(name, args, options),
    },
    conversation: {
      archive: createResultArchive(artifacts, { pointTo: settings.pointTo ?? 'artifact-tools' }),
      describe: (text) => describeResult(text),
    },
  };
}
