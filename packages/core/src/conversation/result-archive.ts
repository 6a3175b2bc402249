/** Where a stored tool result is and what it is. */
export interface ArchivedResult {
  /** The id a reader passes to `artifact_read` (`art_…`). */
  artifactId: string;
  /** Lowercase hex SHA-256 of the stored bytes. */
  sha256: string;
  /** Size of the stored bytes. */
  bytes: number;
  /**
   * Absolute path of the stored file, when the model is to open it with its own file tools
   * (`createArtifactMode({ pointTo: 'file' })`): pointer lines then name the file, not
   * `artifact_read`. Default none.
   */
  path?: string;
}

/**
 * The seam a conversation budget keeps full tool results through, so a result stepped down to
 * one pointer line can still be read whole (`createArtifactMode(…).conversation.archive` stores
 * them beside the transcript). Without one, stepped-down results say they are not retrievable.
 */
export interface ResultArchive {
  /**
   * Stores the full text of one tool result, or finds it already stored: the same result
   * (tool call id, tool name and text) always gets the same id, so a restarted process points
   * at the same artifact. Resolves to `undefined`, or rejects, when it could not store it;
   * the pointer line then says the result is not stored.
   */
  archive(input: {
    toolCallId: string;
    toolName: string;
    text: string;
    /**
     * Lowercase hex SHA-256 of `text`'s UTF-8 bytes (`contentDigest`), when the caller already
     * computed it: an archive may trust it instead of hashing the text again. It must be the
     * digest of this `text`.
     */
    contentDigest?: string;
    signal?: AbortSignal;
  }): Promise<ArchivedResult | undefined>;
}
