import {
  type ArtifactAppendHandle,
  type ArtifactFileSystem,
  type ArtifactWriteHandle,
  nodeArtifactFileSystem,
} from '../storage/artifact-file-system.js';

/** An operation of `ArtifactFileSystem` (or of a handle it opened) a fault can hit. */
export type ArtifactFileOperation =
  | 'mkdir'
  | 'openForWrite'
  | 'write'
  | 'sync'
  | 'close'
  | 'rename'
  | 'link'
  | 'size'
  | 'unlink'
  | 'openForAppend'
  | 'append';

/** What goes wrong with one operation. */
export type ArtifactFault =
  /** The operation fails with this errno code (`ENOSPC`, `EACCES`, `EROFS`, `EIO`…), doing nothing. */
  | { code: string }
  /**
   * A `write` or `append` puts only its first `bytes` bytes on disk: then it fails with `code`
   * (a disk that fills up mid-write; at most all bytes but one are written, since a write that
   * fails wrote less than it was given), or without `code` (at most all of them) it reports
   * success for `write` (a lying device) and the short count for `append`.
   */
  | { shortWrite: number; code?: string };

/** Settings of `createFaultyArtifactFileSystem`. */
export interface FaultyArtifactFileSystemSettings {
  /** The filesystem faults are injected into. Default: the real one. */
  base?: ArtifactFileSystem;
  /** Called before each operation with its path; returns the fault to inject, if any. */
  fault: (operation: ArtifactFileOperation, path: string) => ArtifactFault | undefined;
}

/** One fault that was injected. */
export interface InjectedFault {
  operation: ArtifactFileOperation;
  path: string;
  fault: ArtifactFault;
}

function errno(code: string, operation: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected fault, ${operation} '${path}'`), { code });
}

/**
 * An `ArtifactFileSystem` that fails where `settings.fault` says: an errno error, or a short
 * write that leaves the first bytes on disk, as a full disk does. Every operation without a
 * fault goes to `settings.base`. Use it to check that a store, an index or a transcript reports
 * or fails open on write errors, without root-only tricks (a test running as root reads and
 * writes through any permission bits).
 */
export function createFaultyArtifactFileSystem(
  settings: FaultyArtifactFileSystemSettings,
): ArtifactFileSystem & { readonly injected: readonly InjectedFault[] } {
  const base = settings.base ?? nodeArtifactFileSystem;
  const baseAppend = base.openForAppend ?? nodeArtifactFileSystem.openForAppend!;
  const injected: InjectedFault[] = [];
  const check = (operation: ArtifactFileOperation, path: string) => {
    const fault = settings.fault(operation, path);
    if (fault) injected.push({ operation, path, fault });
    if (fault && 'code' in fault && !('shortWrite' in fault)) {
      throw errno(fault.code, operation, path);
    }
    return fault;
  };
  const shortLength = (fault: ArtifactFault | undefined, length: number) =>
    fault && 'shortWrite' in fault
      ? Math.max(0, Math.min(fault.code ? length - 1 : length, Math.floor(fault.shortWrite)))
      : undefined;

  return {
    injected,
    async mkdir(path) {
      check('mkdir', path);
      await base.mkdir(path);
    },
    async openForWrite(path) {
      check('openForWrite', path);
      const handle: ArtifactWriteHandle = await base.openForWrite(path);
      return {
        async write(data) {
          const fault = check('write', path);
          const short = shortLength(fault, data.byteLength);
          if (short === undefined) return handle.write(data);
          await handle.write(data.subarray(0, short));
          if (fault && 'code' in fault && fault.code) throw errno(fault.code, 'write', path);
        },
        async sync() {
          check('sync', path);
          await handle.sync();
        },
        async close() {
          check('close', path);
          await handle.close();
        },
      };
    },
    async rename(from, to) {
      check('rename', to);
      await base.rename(from, to);
    },
    ...(base.link
      ? {
          async link(from: string, to: string) {
            check('link', to);
            await base.link!(from, to);
          },
        }
      : {}),
    ...(base.size
      ? {
          async size(path: string) {
            check('size', path);
            return base.size!(path);
          },
        }
      : {}),
    async unlink(path) {
      check('unlink', path);
      await base.unlink(path);
    },
    async openForAppend(path, options) {
      check('openForAppend', path);
      const handle: ArtifactAppendHandle = await baseAppend(path, options);
      return {
        lastByte: () => handle.lastByte(),
        async append(data) {
          const fault = check('append', path);
          const short = shortLength(fault, data.byteLength);
          if (short === undefined) return handle.append(data);
          const written = short > 0 ? await handle.append(data.subarray(0, short)) : 0;
          if (fault && 'code' in fault && fault.code) throw errno(fault.code, 'append', path);
          return written;
        },
        close: () => handle.close(),
      };
    },
  };
}
