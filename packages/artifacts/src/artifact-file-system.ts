import { link, mkdir, open, rename, stat, unlink } from 'node:fs/promises';

/** An open file being written. */
export interface ArtifactWriteHandle {
  /** Appends `data`; resolves once the bytes are handed to the OS. */
  write(data: Uint8Array): Promise<void>;
  /** Flushes the file to stable storage. */
  sync(): Promise<void>;
  /** Closes the file. */
  close(): Promise<void>;
}

/**
 * The file operations a store writes with. The default is the real filesystem; tests pass a
 * failing one to check that a write error fails open instead of losing the excerpt.
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
};
