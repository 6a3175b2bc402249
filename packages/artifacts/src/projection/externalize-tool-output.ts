import { type CompactionConfig, InvalidArgumentError, knobDefault } from '@compaction/core';
import { ArtifactError } from '../artifact-error.js';
import type { ArtifactIndex } from '../storage/artifact-index.js';
import type { ArtifactRecord } from '../storage/artifact-record.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { type StoredForm, storedFormOf } from '../storage/json-layout.js';
import { buildArtifactRecord } from '../storage/record-stored-artifact.js';
import type { StoredArtifact } from '../storage/stored-artifact.js';
import { countGraphemes } from '../text/count-graphemes.js';
import { describeText } from '../text/describe-text.js';
import { headGraphemes } from '../text/grapheme-window.js';
import { artifactNotStoredLine, artifactPointerLine } from './artifact-pointer-line.js';
import { DEFAULT_PROJECTION_POLICIES } from './default-projection-policies.js';
import type { ExcerptSource } from './excerpt-marker.js';
import type { ProjectionPolicy, ToolOutput } from './projection-policy.js';

/** Inputs of `externalizeToolOutput` besides the output. */
export interface ExternalizeOptions {
  /** The session (transcript stem); names the artifact and enters its id. */
  sessionId: string;
  /** Outputs up to this many chars stay inline. Default: `config.artifacts.inlineLimitChars`, else 4000 (`COMPACTION_ARTIFACT_INLINE_LIMIT` through `loadConfig`). */
  inlineLimitChars?: number;
  /** Resolved config (`loadConfig`); supplies the inline limit when `inlineLimitChars` is absent. */
  config?: Pick<CompactionConfig, 'artifacts'>;
  /** Where full outputs go; without one the content says the output was not stored. */
  store?: ArtifactStore;
  /** The index records are added to after the file is written. Default: `store.index`. */
  index?: ArtifactIndex;
  /** Projection policies, first match wins; a policy's `keepInline` keeps an output whole. Default `DEFAULT_PROJECTION_POLICIES`. */
  policies?: readonly ProjectionPolicy[];
  /** The message the result belongs to, for the artifact id. */
  messageId?: string | number;
  /** Milliseconds since the epoch. Default `Date.now`. */
  clock?: () => number;
  /** Cancels the write. */
  signal?: AbortSignal;
}

/** What the conversation gets for one tool output. */
export interface ExternalizedOutput {
  /** The one string for the conversation, the transcript, the tool-result event and the digest. */
  content: string;
  /** True when `content` is not the whole output. */
  contentLost: boolean;
  /** The index record, when the output was stored. */
  artifact?: ArtifactRecord;
  /** The file metadata, when the output was stored. */
  stored?: StoredArtifact;
  /** Why it was not stored, when a store was given and writing failed. */
  failure?: ArtifactError;
}

/** Smallest inline limit that leaves room for the pointer lines and an excerpt marker. */
export const MIN_INLINE_LIMIT_CHARS = 1000;

/** The inline limit's built-in default, from core's knob table (4000). */
export function defaultInlineLimitChars(): number {
  return knobDefault('artifacts.inlineLimitChars');
}

function checkLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < MIN_INLINE_LIMIT_CHARS) {
    throw new InvalidArgumentError({
      argument: 'inlineLimitChars',
      message: `inlineLimitChars must be an integer ≥ ${MIN_INLINE_LIMIT_CHARS}, got ${limit}`,
    });
  }
  return limit;
}

/**
 * Seed 001's settle step for one tool output: inline when it fits the limit; otherwise the full
 * bytes are written first (temp file and rename), the index record second, and the content is
 * a few pointer lines plus the matching policy's body, within the limit in chars. A failed write
 * fails open: the content says the output was not stored and nothing is thrown.
 */
export async function externalizeToolOutput(
  output: ToolOutput,
  options: ExternalizeOptions,
): Promise<ExternalizedOutput> {
  const limit = checkLimit(
    options.inlineLimitChars ??
      options.config?.artifacts.inlineLimitChars ??
      defaultInlineLimitChars(),
  );
  const fits = headGraphemes(output.output, limit + 1);
  if (fits.whole && fits.count <= limit) return { content: output.output, contentLost: false };

  const policies = options.policies ?? DEFAULT_PROJECTION_POLICIES;
  const policy = policies.find((candidate) => candidate.matches(output.toolName));
  if (!policy) {
    throw new InvalidArgumentError({
      argument: 'policies',
      message: `no projection policy matches tool ${JSON.stringify(output.toolName)}`,
    });
  }
  if (policy.keepInline?.(output)) return { content: output.output, contentLost: false };
  // A one-line JSON result is stored one value per line, so search and read answer lines; the
  // excerpt is cut from what is stored, so its marker describes the file.
  let form: StoredForm = options.store ? storedFormOf(output.output) : { text: output.output };
  let stored: StoredArtifact | undefined;
  let failure: ArtifactError | undefined;
  if (options.store) {
    try {
      stored = await options.store.store(output.toolCallId, form.text, {
        signal: options.signal,
      });
    } catch (error) {
      if (!ArtifactError.isInstance(error) || error.code !== 'artifact_store_failed') throw error;
      failure = error;
    }
  }
  const asStored = (): ToolOutput =>
    form.text === output.output ? output : { ...output, output: form.text };
  if (!stored) form = { text: output.output };
  // The store measured bytes, chars and digest while writing; measure only when it did not.
  let description = stored ?? describeText(form.text);
  let draftSource: ExcerptSource = {
    totalChars: description.chars,
    totalBytes: description.bytes,
    digest: description.digest,
  };
  // A first projection names the output; the body is rebuilt below to the room the header leaves.
  const draft = policy.project(asStored(), {
    budgetChars: limit,
    source: stored ? { ...draftSource, file: stored.file } : draftSource,
  });
  const summary = headGraphemes(draft.summary.replace(/\s+/g, ' '), 200).text;
  let artifact: ArtifactRecord | undefined;
  if (stored) {
    const record = buildArtifactRecord({
      sessionId: options.sessionId,
      stored,
      toolCallId: output.toolCallId,
      toolName: output.toolName,
      ...(options.messageId === undefined ? {} : { messageId: options.messageId }),
      kind: draft.kind,
      title: draft.title,
      summary,
      preview: headGraphemes(form.text, 400).text,
      ...(form.original ? { original: form.original } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    });
    const index = options.index ?? options.store?.index;
    try {
      artifact = index ? await index.add(record, { signal: options.signal }) : record;
    } catch (error) {
      // The file is written but nothing can find it by id: an orphan, reported as not stored.
      stored = undefined;
      failure = new ArtifactError({
        code: 'artifact_store_failed',
        message: `Could not index the result of ${JSON.stringify(output.toolCallId)}: ${String(error)}`,
        cause: error,
      });
      if (form.original) {
        // Not stored: the excerpt is of the result as returned, and its marker says so.
        form = { text: output.output };
        description = describeText(form.text);
        draftSource = {
          totalChars: description.chars,
          totalBytes: description.bytes,
          digest: description.digest,
        };
      }
    }
  }
  const source: ExcerptSource = stored
    ? { ...draftSource, file: stored.file }
    : { ...draftSource, notStoredReason: failure ? 'write failed' : 'no session' };
  const failed =
    output.isError === true || (output.exitCode !== undefined && output.exitCode !== 0);
  const verb = failed ? 'failed' : 'completed';
  const pointer =
    stored && artifact
      ? artifactPointerLine(artifact)
      : artifactNotStoredLine(source.notStoredReason ?? 'no session');
  const header = `Tool ${output.toolName} ${verb}. ${summary}\n${pointer}\n`;
  const room = limit - countGraphemes(header);
  const content = header + policy.project(asStored(), { budgetChars: room, source }).body;

  return {
    content,
    contentLost: true,
    ...(artifact ? { artifact } : {}),
    ...(stored ? { stored } : {}),
    ...(failure ? { failure } : {}),
  };
}
