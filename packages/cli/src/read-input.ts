import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CliIo } from './cli-io.js';
import { UsageError } from './usage-error.js';

/**
 * Reads a command's input: the file named by `path`, or standard input for `-` (or no path when
 * stdin is not a terminal). Bytes are decoded as UTF-8.
 */
export async function readInput(path: string | undefined, io: CliIo): Promise<string> {
  if (path !== undefined && path !== '-') return readFile(resolve(io.cwd, path), 'utf8');
  if (path === undefined && io.stdin.isTTY) {
    throw new UsageError('no input: give a FILE argument or pipe data on standard input (-)');
  }
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}
