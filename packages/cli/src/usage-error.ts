import { CompactionError } from '@compaction/core/internal';

/** The command line itself is wrong (unknown command or flag, missing argument): exit code 2. */
export class UsageError extends CompactionError {
  constructor(message: string) {
    super({ message, code: 'usage' });
    this.name = 'UsageError';
  }

  static override isInstance(error: unknown): error is UsageError {
    return CompactionError.hasMarker(error, 'UsageError');
  }
}
