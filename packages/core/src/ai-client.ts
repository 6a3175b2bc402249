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
  /**
   * Fingerprint of the route that actually answered, in the form of `AIRoute.fingerprint`. Set
   * by clients that implement `route`; a cache stores an answer only when it equals the
   * fingerprint announced before the call (a failover to another provider does not).
   */
  route?: string;
  /** Token usage, when the provider reports it. */
  usage?: AIUsage;
}

/** Where a request will go, announced before the call (seed 002 §5.3). */
export interface AIRoute {
  /**
   * A stable, secret-free description of what will answer: the provider or providers in order,
   * the endpoint without credentials, the model an alias resolves to, and request options that
   * change the answer. Equal fingerprints mean the same model under the same rules, so a cached
   * answer may be reused; it is part of every distill cache key.
   */
  fingerprint: string;
  /**
   * False when the route can change between calls in ways the fingerprint cannot capture (a
   * load balancer across models, a router that decides per request): such answers are neither
   * read from nor written to a cache.
   */
  stable: boolean;
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
  /**
   * The route `request` would take now. Optional: without it, a distill cache keys on
   * `provider` and the requested model name alone, so remapping an alias (`fast`) keeps serving
   * the old model's answers until they expire. The built-in clients implement it.
   */
  route?(request: Pick<AICompletionRequest, 'model' | 'maxTokens' | 'temperature'>): AIRoute;
}
