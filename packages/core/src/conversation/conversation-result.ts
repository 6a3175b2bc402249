/**
 * What a tool result shows under a conversation budget, from most to least: its per-result
 * view (the full output when it fits), a small view, one pointer line, or, for a stored result
 * whose pointer line an earlier step-down made, the short form of that line (no SHA-256: its
 * `art_…` id, derived from the content digest, still names exactly one artifact).
 */
export type ConversationStep = 'view' | 'small' | 'pointer' | 'short-pointer';

/** One tool result of a conversation, as `fitConversation` reads it. */
export interface ConversationResult {
  /** The tool call id, exactly as the provider gave it. */
  toolCallId: string;
  /** The tool's name. */
  toolName: string;
  /**
   * The model turn that first saw this result: results answering the calls of one model
   * response share it. Results come in prompt order, so turns never decrease. The budget is
   * replayed turn by turn, which is what makes a step a function of the conversation alone.
   */
  turn: number;
  /** The per-result view, or the full output when it fits; an artifact read's output as it is. */
  view: string;
  /** A smaller view (a few KB, with its notes), when the result has one smaller than `view`. */
  smallView?: string;
  /** The tool failed (an error output). Failed results step down last. */
  failed?: boolean;
  /**
   * The output of `artifact_read` / `artifact_search`: never re-compacted (no small view), and
   * the first to step down once a later model turn has seen it.
   */
  artifactRead?: boolean;
  /** UTF-8 bytes of the full output. */
  bytes: number;
  /** Lowercase hex SHA-256 of the full output, when known. */
  sha256?: string;
  /** The artifact holding the full output (`art_…`), when it is stored. */
  artifactId?: string;
  /** The stored file's absolute path, when the model reads it with its own file tools. */
  artifactPath?: string;
  /** One line describing the full output (structure and record count, level counts, …). */
  digest?: string;
}
