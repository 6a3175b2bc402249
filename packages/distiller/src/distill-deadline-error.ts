import { CompactionError } from '@compaction/core';

/** The compaction deadline passed; the abort reason of the distiller's signal. */
export class DistillDeadlineError extends CompactionError {
  /** The deadline, in milliseconds. */
  readonly deadlineMs: number;

  constructor(input: { deadlineMs: number }) {
    super({
      message: `compaction deadline of ${input.deadlineMs} ms reached`,
      code: 'distill_deadline',
    });
    this.name = 'DistillDeadlineError';
    this.deadlineMs = input.deadlineMs;
  }

  static override isInstance(error: unknown): error is DistillDeadlineError {
    return CompactionError.hasMarker(error, 'DistillDeadlineError');
  }
}
