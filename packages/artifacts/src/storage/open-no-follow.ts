import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isPermissionError, permissionDenied } from './permission-denied.js';

// O_NOFOLLOW is 0 where the platform lacks it; the lstat check in callers covers that case.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * Opens `path` for reading without following a symbolic link in its last component, and only
 * when it is a regular file. Resolves to `undefined` when it is absent, a link, a directory or
 * anything else, so callers answer "not found" instead of serving bytes from elsewhere. A file
 * the process may not read throws `artifact_permission_denied`, naming the file and its folder
 * (`<session>.artifacts/<file>`), never "not found".
 */
export async function openRegularFile(path: string): Promise<FileHandle | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | NO_FOLLOW);
  } catch (error) {
    if (isPermissionError(error)) {
      throw permissionDenied(join(basename(dirname(path)), basename(path)), error);
    }
    return undefined;
  }
  try {
    if ((await handle.stat()).isFile()) return handle;
  } catch {
    // fall through: an unreadable handle is treated as absent
  }
  await handle.close().catch(() => {});
  return undefined;
}
