/** One model call. */
export interface AICompletionRequest {
  /** System instructions. */
  system: string;
  /** The user message. */
  prompt: string;
  /** A portable alias (`fast`, `default`, `smart`) or a concrete model name. */
  model: string;
  /** Upper bound on generated tokens. */
  maxTokens?: number;
  /** Sampling temperature. */
  temperature?: number;
  /** Cancels the call. */
  signal?: AbortSignal;
  /** What the call is for, such as `map-reduce chunk 3/7` (for debugging records). */
  description?: string;
}

/** Token counts reported by the provider. */
export interface AIUsage {
  inputTokens: number;
  outputTokens: number;
}

/** A model's answer. */
export interface AICompletion {
  /** The generated text. */
  text: string;
  /** The concrete model that answered. */
  model?: string;
  /** Token usage, when the provider reports it. */
  usage?: AIUsage;
}

/**
 * The model seam: complete a system + user prompt. Implementations use their SDK's own retries
 * and timeouts and reject on failure; callers fail open.
 */
export interface AIClient {
  /** Provider name for telemetry (`openai`, `anthropic`, …). */
  readonly provider: string;
  /** Runs one completion. */
  complete(request: AICompletionRequest): Promise<AICompletion>;
}
