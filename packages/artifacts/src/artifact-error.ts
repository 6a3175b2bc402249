import { CompactionError } from '@compaction/core';

/** Machine codes of `ArtifactError`. */
export type ArtifactErrorCode =
  | 'artifact_invalid_id'
  | 'artifact_not_found'
  | 'artifact_store_failed'
  | 'artifact_transcript_invalid';

/**
 * An artifact operation the caller must act on: an id that could escape the store, an artifact
 * that is not there, a failed write, or a transcript whose digest check fails.
 */
export class ArtifactError extends CompactionError {
  /** The offending id or path, when there is one. */
  readonly subject: string | undefined;

  constructor(input: {
    code: ArtifactErrorCode;
    message: string;
    subject?: string;
    cause?: unknown;
  }) {
    super({ message: input.message, code: input.code, cause: input.cause });
    this.name = 'ArtifactError';
    this.subject = input.subject;
  }

  static override isInstance(error: unknown): error is ArtifactError {
    return CompactionError.hasMarker(error, 'ArtifactError');
  }
}
