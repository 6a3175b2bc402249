import type { AIClient, AICompletion } from '@compaction/core';
import OpenAI from 'openai';
import { MissingCredentialsError } from '../missing-credentials-error.js';
import {
  DEFAULT_MODEL_ALIASES,
  type ModelAliasTable,
  resolveModelAlias,
} from '../model-aliases.js';
import { ModelCallError, toModelCallError } from '../model-call-error.js';
import { routeFingerprint } from '../route-fingerprint.js';

/** Settings of `createOpenAIClient`. */
export interface OpenAIClientSettings {
  /** A ready SDK instance; when given, `apiKey`, `baseURL`, `env`, `maxRetries` and `timeoutMs` are ignored. */
  client?: OpenAI;
  /**
   * API key. Default: `env.OPENAI_API_KEY`. Required for the OpenAI API itself; with a custom
   * `baseURL` (a local OpenAI-compatible server such as Ollama, vLLM or llama.cpp) it may be left
   * out, and then no `Authorization` header is sent.
   */
  apiKey?: string;
  /** Base URL of an OpenAI-compatible API (OpenAI, Ollama, vLLM, llama.cpp). Default: `env.OPENAI_BASE_URL`, else `https://api.openai.com/v1`. */
  baseURL?: string;
  /** Environment to read `OPENAI_API_KEY` and `OPENAI_BASE_URL` from. Default `{}`: pass `process.env` (or the CLI's `io.env`) explicitly. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Alias overrides, merged over `DEFAULT_MODEL_ALIASES.openai`. */
  models?: Partial<ModelAliasTable>;
  /** The SDK's own retry count (429, 5xx and connection errors, with backoff). Default 2, the SDK's default. */
  maxRetries?: number;
  /** The SDK's per-request timeout in milliseconds. Default 600000, the SDK's default. */
  timeoutMs?: number;
  /** Request field that carries the token limit. Default `max_completion_tokens`; some compatible servers want `max_tokens`. */
  maxTokensField?: 'max_completion_tokens' | 'max_tokens';
}

/**
 * An `AIClient` over the `openai` SDK's chat-completions API. Retries and timeouts are the SDK's
 * own; failures reject with a `ModelCallError` that says whether failing over can help.
 */
export function createOpenAIClient(settings: OpenAIClientSettings = {}): AIClient {
  const env = settings.env ?? {};
  let sdk = settings.client;
  if (!sdk) {
    const apiKey = settings.apiKey?.trim() || env.OPENAI_API_KEY?.trim();
    const customBaseURL = settings.baseURL?.trim() || env.OPENAI_BASE_URL?.trim();
    if (!apiKey && !customBaseURL)
      throw new MissingCredentialsError({ provider: 'openai', envVar: 'OPENAI_API_KEY' });
    sdk = new OpenAI({
      // The SDK insists on a key; a keyless local server gets none sent (the header is removed).
      apiKey: apiKey || 'no-key',
      ...(apiKey ? {} : { defaultHeaders: { Authorization: null } }),
      baseURL: customBaseURL || 'https://api.openai.com/v1',
      organization: env.OPENAI_ORG_ID?.trim() || null,
      project: env.OPENAI_PROJECT_ID?.trim() || null,
      maxRetries: settings.maxRetries ?? 2,
      timeout: settings.timeoutMs ?? 600_000,
    });
  }
  const client = sdk;
  const models = { ...DEFAULT_MODEL_ALIASES.openai, ...settings.models };
  const maxTokensField = settings.maxTokensField ?? 'max_completion_tokens';

  const fingerprint = (model: string) =>
    routeFingerprint({
      provider: 'openai',
      baseURL: client.baseURL,
      model,
      options: { maxTokensField },
    });

  return {
    provider: 'openai',
    route(request) {
      return { fingerprint: fingerprint(resolveModelAlias(request.model, models)), stable: true };
    },
    async complete(request): Promise<AICompletion> {
      const model = resolveModelAlias(request.model, models);
      let response: OpenAI.Chat.Completions.ChatCompletion;
      try {
        response = await client.chat.completions.create(
          {
            model,
            messages: [
              { role: 'system', content: request.system },
              { role: 'user', content: request.prompt },
            ],
            ...(request.maxTokens !== undefined ? { [maxTokensField]: request.maxTokens } : {}),
            ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
          },
          { signal: request.signal },
        );
      } catch (error) {
        throw toModelCallError('openai', error);
      }
      const text = response?.choices?.[0]?.message?.content;
      if (typeof text !== 'string') {
        throw new ModelCallError({
          provider: 'openai',
          kind: 'malformed',
          message: 'openai: the response has no message content',
        });
      }
      return {
        text,
        model: response.model ?? model,
        route: fingerprint(model),
        ...(response.usage
          ? {
              usage: {
                inputTokens: response.usage.prompt_tokens,
                outputTokens: response.usage.completion_tokens,
              },
            }
          : {}),
      };
    },
  };
}
