import { ArtifactError } from '../artifact-error.js';

/** True for the errors a file system answers when it will not let the process read or write. */
export function isPermissionError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'EACCES' || code === 'EPERM';
}

/**
 * The error for a file or folder the process may not read: `artifact_permission_denied`,
 * naming `what` (a path relative to the directory served, never the absolute path).
 */
export function permissionDenied(what: string, cause?: unknown): ArtifactError {
  return new ArtifactError({
    code: 'artifact_permission_denied',
    message: `permission denied reading ${what}`,
    subject: what,
    ...(cause === undefined ? {} : { cause }),
  });
}
