import { type CompactionConfig, InvalidArgumentError, knobDefault } from '@compaction/core';
import type { ArtifactError } from '../artifact-error.js';
import type { ArtifactIndex } from '../storage/artifact-index.js';
import type { ArtifactRecord } from '../storage/artifact-record.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { isSha256Hex } from '../storage/is-sha256-hex.js';
import { type StoredForm, storedFormOf } from '../storage/json-layout.js';
import type { StoredArtifact } from '../storage/stored-artifact.js';
import { countGraphemes } from '../text/count-graphemes.js';
import { describeText, type TextDescription } from '../text/describe-text.js';
import { headGraphemes } from '../text/grapheme-window.js';
import { artifactNotStoredLine } from './artifact-pointer-line.js';
import { DEFAULT_PROJECTION_POLICIES } from './default-projection-policies.js';
import type { ExcerptSource } from './excerpt-marker.js';
import type { ProjectionPolicy, ToolOutput } from './projection-policy.js';
import { storeWithPointer } from './store-with-pointer.js';

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
  /**
   * Lowercase hex SHA-256 of `output.output`'s UTF-8 bytes, when the caller already computed it:
   * trusted as given (see `ArtifactStore.store`), so the output is not hashed again.
   */
  contentDigest?: string;
  /** Cancels the write; the promise then rejects with the signal's reason. */
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
  /** Why it was not stored, when a store was given and writing or indexing failed. */
  failure?: ArtifactError;
  /** The file, when it was written but could not be indexed: an orphan no id names. */
  orphan?: StoredArtifact;
}

/** Smallest inline limit that leaves room for the pointer lines and an excerpt marker. */
export const MIN_INLINE_LIMIT_CHARS = 1000;

/** The inline limit's built-in default, from core's knob table (4000). */
export function defaultInlineLimitChars(): number {
  return knobDefault('artifacts.inlineLimitChars');
}

const summaryOf = (summary: string) => headGraphemes(summary.replace(/\s+/g, ' '), 200).text;

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
 * or index record fails open (`storeWithPointer`'s rule): the content says the output was not
 * stored, `failure` says why (and `orphan` names a file written but not indexed), and nothing is
 * thrown; an abort rejects with the signal's reason.
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
  const digest = isSha256Hex(options.contentDigest) ? options.contentDigest : undefined;
  const laidOut: StoredForm = options.store
    ? storedFormOf(output.output, digest)
    : { text: output.output };
  const project = (form: StoredForm, source: ExcerptSource, budgetChars: number) =>
    policy.project(form.text === output.output ? output : { ...output, output: form.text }, {
      budgetChars,
      source,
    });
  const sourceOf = (described: TextDescription): ExcerptSource => ({
    totalChars: described.chars,
    totalBytes: described.bytes,
    digest: described.digest,
  });
  // A first projection names the output (kind, title, summary for the record and the header);
  // the body is rebuilt below to the room the header leaves.
  let draft: ReturnType<typeof policy.project> | undefined;
  const outcome = options.store
    ? await storeWithPointer({
        store: options.store,
        opId: output.toolCallId,
        content: laidOut.text,
        // The caller's digest is of the output: it names the file only when that is what is stored.
        ...(digest !== undefined && !laidOut.original ? { contentDigest: digest } : {}),
        record: (stored) => {
          draft = project(laidOut, { ...sourceOf(stored), file: stored.file }, limit);
          return {
            sessionId: options.sessionId,
            toolCallId: output.toolCallId,
            toolName: output.toolName,
            ...(options.messageId === undefined ? {} : { messageId: options.messageId }),
            kind: draft.kind,
            title: draft.title,
            summary: summaryOf(draft.summary),
            preview: headGraphemes(laidOut.text, 400).text,
            ...(laidOut.original ? { original: laidOut.original } : {}),
            ...(options.clock ? { clock: options.clock } : {}),
          };
        },
        ...(options.index ? { index: options.index } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      })
    : undefined;
  const stored = outcome?.stored;
  // Not stored: the excerpt is of the result as returned, and its marker says why.
  const form: StoredForm = stored ? laidOut : { text: output.output };
  const source: ExcerptSource = stored
    ? { ...sourceOf(stored), file: stored.file }
    : {
        ...sourceOf(describeText(form.text, digest)),
        notStoredReason: outcome?.failure ? outcome.reason : 'no session',
      };
  if (!stored) draft = project(form, source, limit);
  const summary = summaryOf(draft!.summary);
  const failed =
    output.isError === true || (output.exitCode !== undefined && output.exitCode !== 0);
  const verb = failed ? 'failed' : 'completed';
  // The transcript's line keeps the short reason: the header counts against the limit.
  const pointer = outcome?.stored
    ? outcome.line
    : artifactNotStoredLine(source.notStoredReason ?? 'no session');
  const header = `Tool ${output.toolName} ${verb}. ${summary}\n${pointer}\n`;
  const room = limit - countGraphemes(header);
  const content = header + project(form, source, room).body;

  return {
    content,
    contentLost: true,
    ...(outcome?.stored ? { artifact: outcome.record, stored: outcome.stored } : {}),
    ...(outcome?.failure ? { failure: outcome.failure } : {}),
    ...(outcome?.orphan ? { orphan: outcome.orphan } : {}),
  };
}
