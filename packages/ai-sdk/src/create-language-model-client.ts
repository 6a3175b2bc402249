import { type AIClient, type AICompletion, InvalidArgumentError } from '@compaction/core';

/**
 * What `createLanguageModelClient` uses of an AI SDK language model: the `doGenerate` call that
 * every `LanguageModelV3` (AI SDK 6) and `LanguageModelV4` (AI SDK 7) has. Any provider model
 * (`openai('…')`, `anthropic('…')`, a gateway model, a wrapped one) fits.
 */
export interface AiSdkLanguageModel {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: {
    prompt: Array<
      | { role: 'system'; content: string }
      | { role: 'user'; content: Array<{ type: 'text'; text: string }> }
    >;
    maxOutputTokens?: number;
    temperature?: number;
    abortSignal?: AbortSignal;
  }): PromiseLike<{
    content: ReadonlyArray<{ type: string; text?: string }>;
    usage?: {
      inputTokens: { total: number | undefined };
      outputTokens: { total: number | undefined };
    };
    response?: { modelId?: string };
  }>;
}

/** Settings of `createLanguageModelClient`. */
export interface LanguageModelClientSettings {
  /** The model every call goes to, whatever alias (`fast`, `smart`) the caller asks for. Required. */
  model: AiSdkLanguageModel;
  /** Provider name for telemetry. Default: the model's `provider` (`openai.chat`, …). */
  provider?: string;
}

/**
 * The core `AIClient` seam over an AI SDK language model, so the distiller and the continuation
 * distiller run on the provider the application already configured (`createCompaction({
 * aiClient: createLanguageModelClient({ model }) })`). Retries, timeouts and headers are the
 * provider's own; a failed call rejects with the provider's error, and callers fail open.
 */
export function createLanguageModelClient(settings: LanguageModelClientSettings): AIClient {
  const model = settings?.model;
  if (!model || typeof model.doGenerate !== 'function') {
    throw new InvalidArgumentError({
      argument: 'model',
      message: 'model must be an AI SDK language model (LanguageModelV3 or LanguageModelV4)',
    });
  }
  return {
    provider: settings.provider ?? model.provider,
    async complete(request): Promise<AICompletion> {
      request.signal?.throwIfAborted();
      const result = await model.doGenerate({
        prompt: [
          { role: 'system', content: request.system },
          { role: 'user', content: [{ type: 'text', text: request.prompt }] },
        ],
        ...(request.maxTokens !== undefined ? { maxOutputTokens: request.maxTokens } : {}),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(request.signal ? { abortSignal: request.signal } : {}),
      });
      const text = result.content
        .flatMap((part) =>
          part.type === 'text' && typeof part.text === 'string' ? [part.text] : [],
        )
        .join('');
      const input = result.usage?.inputTokens.total;
      const output = result.usage?.outputTokens.total;
      return {
        text,
        model: result.response?.modelId ?? model.modelId,
        ...(input !== undefined && output !== undefined
          ? { usage: { inputTokens: input, outputTokens: output } }
          : {}),
      };
    },
  };
}
