/** What an agent-input processor knows about the dispatch it prepares. */
export interface AgentInputContext {
  /** The tool about to be called. */
  toolName?: string;
  /** The step that will call it. */
  stepId?: string;
  /** Request id for correlation. */
  requestId?: string;
  /** Cancels the work. */
  signal?: AbortSignal;
}

/** What happened to one parameter. */
export interface AgentInputChange {
  /** Parameter name. */
  name: string;
  /** UTF-8 bytes before (strings as text, other values as JSON). */
  originalBytes: number;
  /** UTF-8 bytes after. */
  outputBytes: number;
  /** True when the value handed to the tool is not the whole original. */
  contentLost: boolean;
}

/** The parameters to dispatch and an account of every change made to them. */
export interface ProcessedAgentInput {
  params: Record<string, unknown>;
  changes: AgentInputChange[];
}

/**
 * The tool→tool seam (seed 002 §4, §8.3): redact, validate, enrich or trim the parameters a
 * tool is about to be called with, when they carry another tool's output. The default passes
 * them through raw (fidelity first). A redacting implementation should fail closed: reject
 * rather than dispatch unredacted data.
 */
export interface AgentInputProcessor {
  process(
    params: Readonly<Record<string, unknown>>,
    context?: AgentInputContext,
  ): Promise<ProcessedAgentInput>;
}
