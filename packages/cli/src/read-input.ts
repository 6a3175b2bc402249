import { constants } from 'node:buffer';
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CliIo } from './cli-io.js';
import { InputTooLargeError } from './input-too-large-error.js';
import { UsageError } from './usage-error.js';

/** Options of `readInput`. */
export interface ReadInputOptions {
  /**
   * Most UTF-16 code units the decoded input may have. Default (and at most) the runtime's
   * `buffer.constants.MAX_STRING_LENGTH` (2^29 - 24 on 64-bit V8).
   */
  maxChars?: number;
}

// UTF-8 spends 1 to 3 bytes per UTF-16 unit (4 per surrogate pair), so N bytes decode to at
// most N units and at least N / 3.
const MAX_BYTES_PER_UNIT = 3;

function decode(data: Buffer, maxChars: number): string {
  let text: string;
  try {
    text = data.toString('utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_STRING_TOO_LONG') {
      throw new InputTooLargeError({ bytes: data.byteLength, maxChars });
    }
    throw error;
  }
  if (text.length > maxChars) throw new InputTooLargeError({ bytes: data.byteLength, maxChars });
  return text;
}

/**
 * Reads a command's input: the file named by `path`, or standard input for `-` (or no path when
 * stdin is not a terminal). Bytes are decoded as UTF-8. An input too big for one string is an
 * `InputTooLargeError` naming the limit and the streaming commands, raised before reading when
 * its size alone says so (a file by its size, standard input once that many bytes arrived).
 */
export async function readInput(
  path: string | undefined,
  io: CliIo,
  options: ReadInputOptions = {},
): Promise<string> {
  const maxChars = Math.min(
    options.maxChars ?? constants.MAX_STRING_LENGTH,
    constants.MAX_STRING_LENGTH,
  );
  const maxBytes = maxChars * MAX_BYTES_PER_UNIT;
  if (path !== undefined && path !== '-') {
    const file = resolve(io.cwd, path);
    const { size } = await stat(file);
    if (size > maxBytes) throw new InputTooLargeError({ bytes: size, maxChars });
    return decode(await readFile(file), maxChars);
  }
  if (path === undefined && io.stdin.isTTY) {
    throw new UsageError('no input: give a FILE argument or pipe data on standard input (-)');
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of io.stdin) {
    const data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
    bytes += data.byteLength;
    // Leaving the loop ends the read: no more of the stream is held.
    if (bytes > maxBytes) throw new InputTooLargeError({ bytes, maxChars });
    chunks.push(data);
  }
  return decode(Buffer.concat(chunks), maxChars);
}
