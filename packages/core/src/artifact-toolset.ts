/** One tool a model can call to read stored results back, in a provider-neutral form. */
export interface ArtifactToolDefinition {
  /** Tool name (`artifact_read`, `artifact_search`). */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /** JSON Schema (draft-07 subset) of the arguments object. */
  readonly parameters: Readonly<Record<string, unknown>>;
}

/**
 * The seam between where full results are stored and the agent frameworks that offer the model
 * tools to read them back: framework adapters turn `definitions` into their own tool objects and
 * answer each call with `call`, so they need no file system themselves.
 */
export interface ArtifactToolset {
  /** The tools, in the order they are offered to the model. */
  readonly definitions: readonly ArtifactToolDefinition[];
  /**
   * Runs one call. `args` is the parsed arguments object or the JSON text a provider sent.
   * Resolves to the text for the model; a bad id or argument resolves to an `error: …` line
   * rather than rejecting.
   */
  call(name: string, args: unknown, options?: { signal?: AbortSignal }): Promise<string>;
}

/**
 * The names of the artifact tools every toolset of this library offers. Adapters never compact
 * their answers (a page of a stored result is already what the model asked for) when they are
 * not given the toolset itself.
 */
export const ARTIFACT_TOOL_NAMES: readonly string[] = Object.freeze([
  'artifact_read',
  'artifact_search',
]);
