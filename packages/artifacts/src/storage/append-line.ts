import { dirname } from 'node:path';
import { ArtifactError, type ArtifactErrorCode } from '../artifact-error.js';
import { type ArtifactFileSystem, nodeArtifactFileSystem } from './artifact-file-system.js';

const NEWLINE = Buffer.of(0x0a);
/**
 * Ends a torn line. No JSON text ends with `#`, so the torn bytes never parse as a record, not
 * even a record that lacked only its newline: its append was never reported as done.
 */
const TORN_END = Buffer.from('#\n');

/** Options of `appendLine`. */
export interface AppendLineOptions {
  /** The file operations. Default: the real filesystem. */
  fileSystem?: ArtifactFileSystem;
  /** False to refuse a symbolic link (a store's index). Default true. */
  followLinks?: boolean;
  /** The code of the `ArtifactError` a failed append throws. */
  code: ArtifactErrorCode;
}

function failed(path: string, code: ArtifactErrorCode, reason: string, cause?: unknown) {
  return new ArtifactError({
    code,
    message: `Could not append to ${path}: ${reason}`,
    subject: path,
    ...(cause === undefined ? {} : { cause }),
  });
}

/** Looks at the last byte again this many times, this many ms apart, before calling a line torn. */
const TORN_CHECKS = 3;
const TORN_CHECK_MS = 2;

/**
 * Whether the file ends on a line boundary (or is empty). Another process's append may be in
 * flight: a write that crosses a page is seen with the file grown to the page's end before the
 * rest lands, so a line that looks torn is looked at again a few ms later before it is called
 * so (a torn-line mark there would be a stray `#` line between two whole ones).
 */
async function endsOnLine(handle: { lastByte(): Promise<number | undefined> }): Promise<boolean> {
  for (let check = 0; ; check++) {
    const last = await handle.lastByte();
    if (last === undefined || last === NEWLINE[0]) return true;
    if (check === TORN_CHECKS) return false;
    await new Promise((resolve) => setTimeout(resolve, TORN_CHECK_MS));
  }
}

/**
 * Appends `text` (one or more lines, without the final newline) and a newline to `path`, in one
 * write. The append starts on a line boundary: when the file ends inside a line (torn by a
 * crashed writer, or by an earlier short write of this one), `#` and a newline go first, so the
 * torn bytes stay a line of their own that never parses and readers skip, and never fuse with
 * this one. A short write or an error throws an `ArtifactError` with `options.code` that says
 * how many bytes were written; the torn bytes are then ended the same way when the disk allows.
 * A short write that left out only the final newline is completed by a second write.
 */
export async function appendLine(
  path: string,
  text: string,
  options: AppendLineOptions,
): Promise<void> {
  const fileSystem = options.fileSystem ?? nodeArtifactFileSystem;
  const open = fileSystem.openForAppend ?? nodeArtifactFileSystem.openForAppend!;
  const line = Buffer.from(`${text}\n`, 'utf8');
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    await fileSystem.mkdir(dirname(path));
    handle = await open(path, { followLinks: options.followLinks ?? true });
  } catch (error) {
    throw failed(path, options.code, (error as Error).message ?? String(error), error);
  }
  try {
    let data = line;
    let written: number;
    try {
      if (!(await endsOnLine(handle))) data = Buffer.concat([TORN_END, line]);
      written = await handle.append(data);
    } catch (error) {
      throw failed(path, options.code, (error as Error).message ?? String(error), error);
    }
    if (written !== data.byteLength) {
      const ended = written === data.byteLength - 1 ? NEWLINE : TORN_END;
      const more = written > 0 ? await handle.append(ended).catch(() => 0) : 0;
      // Only the newline was missing, and now it is there: the line is whole.
      if (ended === NEWLINE && more === 1) return;
      throw failed(
        path,
        options.code,
        `short write, ${written} of ${data.byteLength} bytes written (is the disk full?)`,
      );
    }
  } finally {
    await handle.close().catch(() => {});
  }
}
