import type { ArtifactKind } from '../storage/artifact-record.js';
import type { ExcerptSource } from './excerpt-marker.js';

/** A tool's result as the host's loop sees it. */
export interface ToolOutput {
  /** The tool's name, such as `read_file` or `terminal`. */
  toolName: string;
  /** The tool call (operation) id. */
  toolCallId: string;
  /** The arguments the tool was called with. */
  args?: Readonly<Record<string, unknown>>;
  /** The full result text. */
  output: string;
  /** True when the tool reported failure. */
  isError?: boolean;
  /** A terminal command's exit code, when there is one. */
  exitCode?: number;
}

/** What a policy knows besides the output. */
export interface ProjectionContext {
  /** Chars (grapheme clusters) the body may take, marker included. */
  budgetChars: number;
  /** Size and digest of the whole output, and the artifact file when it was stored. */
  source: ExcerptSource;
}

/** A policy's view of one oversized output. */
export interface Projection {
  /** What the output is. */
  kind: ArtifactKind;
  /** One line naming it (for the index and the inspector). */
  title: string;
  /** One sentence saying what it holds. */
  summary: string;
  /** The text the model sees below the pointer lines; at most `budgetChars` chars. */
  body: string;
}

/**
 * How one family of tools is projected into the conversation when its output is over the
 * inline limit. Policies are tried in order; the first whose `matches` is true wins.
 */
export interface ProjectionPolicy {
  /** A name for logs and tests. */
  name: string;
  /**
   * True when this policy handles `toolName`. Build it with `matchToolNames({ names, patterns })`
   * so a name is matched exactly or by an anchored pattern, never by a substring.
   */
  matches(toolName: string): boolean;
  /** The kind the policy's outputs are indexed as, for paths that store without projecting. */
  kind?: ArtifactKind;
  /**
   * True when this output stays inline, whole, even over the limit: nothing is stored and the
   * conversation gets every byte. Default false (no built-in policy sets it).
   */
  keepInline?(output: ToolOutput): boolean;
  /** Builds the projection. Must keep `body` within `context.budgetChars` chars. */
  project(output: ToolOutput, context: ProjectionContext): Projection;
}
