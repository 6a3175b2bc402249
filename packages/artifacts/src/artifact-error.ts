import { CompactionError } from '@compaction/core/internal';

/** Machine codes of `ArtifactError`. */
export type ArtifactErrorCode =
  /** An id or file name that could name something outside the store. */
  | 'artifact_invalid_id'
  /** An argument out of range or of the wrong type (an offset, a limit, an empty pattern). */
  | 'artifact_invalid_argument'
  /** No artifact answers to the reference, or its file is gone, or it is a symbolic link. */
  | 'artifact_not_found'
  /** A store, index or artifact file the process may not read (`EACCES`, `EPERM`). */
  | 'artifact_permission_denied'
  /** An operation id that names several artifacts; the message lists their ids. */
  | 'artifact_ambiguous'
  /** A regular expression the linear-time engine does not run (look-around, back-references). */
  | 'artifact_pattern_unsupported'
  /** A regular expression that does not parse at all. */
  | 'artifact_pattern_invalid'
  | 'artifact_store_failed'
  /** A transcript line whose content no longer matches its digest. */
  | 'artifact_transcript_invalid'
  /** An append to a transcript failed or was cut short (a full disk); the line is not recorded. */
  | 'artifact_transcript_write_failed';

/**
 * An artifact operation the caller must act on: an id that could escape the store, a bad
 * argument or pattern, an artifact that is not there, a failed write, or a transcript whose
 * digest check fails or that could not be appended to.
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
