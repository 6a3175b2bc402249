/** A temp-file writer that the streaming path and `store` share. */
export interface TempWrite {
  write(data: Uint8Array): Promise<void>;
  /** Syncs, closes and moves into place under a name derived from the content; returns the basename. */
  commit(): Promise<string>;
  /** Closes and removes the temp file, ignoring errors. */
  abandon(): Promise<void>;
}
