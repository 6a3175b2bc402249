import { CompactionError } from '@compaction/core';

/**
 * An input bigger than one JavaScript string can hold, given to a command that needs the whole
 * result in memory (trim, digest, distill). The message names the limit and the commands that
 * stream instead: exit code 1.
 */
export class InputTooLargeError extends CompactionError {
  /** Bytes read or reported by the file system. */
  readonly bytes: number;
  /** The most UTF-16 code units one string may hold here. */
  readonly maxChars: number;

  constructor(input: { bytes: number; maxChars: number }) {
    super({
      message: `the input is ${input.bytes.toLocaleString('en-US')} bytes, more than one JavaScript string can hold (${input.maxChars.toLocaleString('en-US')} UTF-16 code units in this runtime), and this command needs the whole result in memory; stream it instead with 'compaction excerpt' (a head and tail excerpt of any size) or 'compaction store' (keeps it whole as an artifact)`,
      code: 'input_too_large',
    });
    this.name = 'InputTooLargeError';
    this.bytes = input.bytes;
    this.maxChars = input.maxChars;
  }

  static override isInstance(error: unknown): error is InputTooLargeError {
    return CompactionError.hasMarker(error, 'InputTooLargeError');
  }
}
