import { CompactionError } from '@compaction/core';

/**
 * A digest pass stopped because its `shouldStop` poll said so (a deadline or a cancellation
 * reached synchronous work). The caller falls back to its floor preview.
 */
export class DigestStoppedError extends CompactionError {
  /** Units of work (values and members visited) done before the pass stopped. */
  readonly work: number;

  constructor(input: { work: number }) {
    super({ message: `digest stopped after ${input.work} values`, code: 'digest_stopped' });
    this.name = 'DigestStoppedError';
    this.work = input.work;
  }

  static override isInstance(error: unknown): error is DigestStoppedError {
    return CompactionError.hasMarker(error, 'DigestStoppedError');
  }
}
