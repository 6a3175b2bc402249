import { InvalidArgumentError } from '@compaction/core';

/**
 * The `transcriptPath` setting of `caller`, or an `InvalidArgumentError` naming it: without the
 * check a missing path reaches `node:path` and surfaces as its raw "The "path" argument must be
 * of type string" error, which names neither the option nor the factory.
 */
export function requireTranscriptPath(value: unknown, caller: string): string {
  if (typeof value === 'string' && value.trim() !== '') return value;
  throw new InvalidArgumentError({
    argument: 'transcriptPath',
    message: `${caller}: transcriptPath is required: the session transcript's path (such as runs/s1.jsonl); full results are stored in <stem>.artifacts/ beside it. Got ${value === undefined ? 'nothing' : JSON.stringify(value)}`,
  });
}
