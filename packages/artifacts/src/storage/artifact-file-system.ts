import { constants } from 'node:fs';
import { link, mkdir, open, rename, stat, unlink } from 'node:fs/promises';

// O_NOFOLLOW is 0 where the platform lacks it.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** An open file being written. */
export interface ArtifactWriteHandle {
  /** Appends `data`; resolves once the bytes are handed to the OS. */
  write(data: Uint8Array): Promise<void>;
  /** Flushes the file to stable storage. */
  sync(): Promise<void>;
  /** Closes the file. */
  close(): Promise<void>;
}

/** A file of lines opened for appending (a transcript, a store's index). */
export interface ArtifactAppendHandle {
  /** The file's last byte, or `undefined` when the file is empty. */
  lastByte(): Promise<number | undefined>;
  /**
   * Writes `data` at the end of the file in one write, so that a concurrent appender's line
   * never lands inside it; resolves to the bytes written, fewer than `data` holds on a short
   * write (a disk that filled up). Not retried: the rest would be a second write.
   */
  append(data: Uint8Array): Promise<number>;
  /** Closes the file. */
  close(): Promise<void>;
}

/**
 * The file operations a store, its index and a session transcript write with. The default is
 * the real filesystem; tests pass a failing one (`createFaultyArtifactFileSystem` from
 * `@compaction/artifacts/test`) to check that a write error fails open or is reported, never
 * lost.
 */
export interface ArtifactFileSystem {
  /** Creates `path` and its parents; succeeds when it already exists as a directory. */
  mkdir(path: string): Promise<void>;
  /** Creates `path` for writing; fails when it exists. */
  openForWrite(path: string): Promise<ArtifactWriteHandle>;
  /** Atomically replaces `to` with `from`. */
  rename(from: string, to: string): Promise<void>;
  /**
   * Gives `from` the second name `to`, failing with `EEXIST` when `to` exists (so nothing is
   * ever replaced). Optional: without it, or where the filesystem has no hard links, the store
   * renames instead, which is safe because a name is derived from the content it holds.
   */
  link?(from: string, to: string): Promise<void>;
  /** Size in bytes of `path`, or `undefined` when it does not exist. */
  size?(path: string): Promise<number | undefined>;
  /** Removes `path`. */
  unlink(path: string): Promise<void>;
  /**
   * Opens `path` for appending lines, creating it when absent. With `followLinks: false` (a
   * store's index) a symbolic link is refused (`ELOOP`). Optional: without it the real
   * filesystem appends.
   */
  openForAppend?(path: string, options?: { followLinks?: boolean }): Promise<ArtifactAppendHandle>;
}

/** The real filesystem, through `node:fs/promises`. */
export const nodeArtifactFileSystem: ArtifactFileSystem = {
  async mkdir(path) {
    await mkdir(path, { recursive: true });
  },
  async openForWrite(path) {
    const handle = await open(path, 'wx', 0o644);
    return {
      async write(data) {
        let offset = 0;
        while (offset < data.byteLength) {
          const { bytesWritten } = await handle.write(data, offset, data.byteLength - offset);
          // A write that makes no progress would loop for ever.
          if (bytesWritten === 0) {
            throw Object.assign(
              new Error(`short write: ${offset} of ${data.byteLength} bytes written`),
              { code: 'EIO' },
            );
          }
          offset += bytesWritten;
        }
      },
      sync: () => handle.sync(),
      close: () => handle.close(),
    };
  },
  rename: (from, to) => rename(from, to),
  link: (from, to) => link(from, to),
  size: async (path) => (await stat(path).catch(() => undefined))?.size,
  unlink: (path) => unlink(path),
  async openForAppend(path, options = {}) {
    const flags =
      constants.O_RDWR |
      constants.O_APPEND |
      constants.O_CREAT |
      (options.followLinks === false ? NO_FOLLOW : 0);
    const handle = await open(path, flags, 0o644);
    return {
      async lastByte() {
        const { size } = await handle.stat();
        if (size === 0) return undefined;
        const byte = Buffer.alloc(1);
        const { bytesRead } = await handle.read(byte, 0, 1, size - 1);
        return bytesRead === 1 ? byte[0] : undefined;
      },
      async append(data) {
        const { bytesWritten } = await handle.write(data, 0, data.byteLength);
        return bytesWritten;
      },
      close: () => handle.close(),
    };
  },
};
