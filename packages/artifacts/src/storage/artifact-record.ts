import type { StoredLayout } from './json-layout.js';

/** What a stored result is (seed 001's kinds). */
export type ArtifactKind = 'tool_output' | 'file_read' | 'terminal_log' | 'diff' | 'doc';

/** One line of a store's durable index. */
export interface ArtifactRecord {
  /** Stable id (`artifactIdFor`). */
  id: string;
  /** The session (transcript stem) the artifact belongs to. */
  sessionId: string;
  /** The tool call (operation) id, when known, exactly as the provider gave it (any shape). */
  toolCallId?: string;
  /** The tool's name, when known. */
  toolName?: string;
  /** What the result is. */
  kind: ArtifactKind;
  /** One line naming it, such as `read_file src/app.ts`. */
  title: string;
  /** One or two sentences saying what it holds. */
  summary: string;
  /** The first few hundred chars, for lists. */
  preview: string;
  /** Grapheme clusters of the full result. */
  chars: number;
  /** Bytes of the stored file. */
  bytes: number;
  /** Lines of the stored file, as `artifact_read` counts them (absent in older records). */
  lines?: number;
  /** SHA-256 of the stored file. */
  digest: string;
  /**
   * Set when the stored file is the result laid out rather than as returned (absent: the file
   * is the result byte for byte). `json-lines`: a one-line JSON result, one value per line;
   * `restoreJsonLayout` of the file gives back bytes whose SHA-256 is `digest` here.
   */
  original?: {
    /** How the file was laid out. */
    layout: StoredLayout;
    /** SHA-256 of the result as returned. */
    digest: string;
    /** Bytes of the result as returned. */
    bytes: number;
  };
  /** Basename of the file inside the store directory (never an absolute path). */
  path: string;
  /** Milliseconds since the epoch, from the injected clock. */
  createdAt: number;
}
