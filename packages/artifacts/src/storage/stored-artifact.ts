/** What a store says about one stored result (seed 000's metadata). */
export interface StoredArtifact {
  /** Basename of the file in the store directory (`artifactFileName(opId, digest)`). */
  file: string;
  /** Lowercase hex SHA-256 of the file's bytes. */
  digest: string;
  /** Size of the file in bytes. */
  bytes: number;
  /** Grapheme clusters of the result as text. */
  chars: number;
  /** Lines of the file (newlines, plus one for a last line without its newline). */
  lines?: number;
}
