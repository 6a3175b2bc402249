import Anthropic from '@anthropic-ai/sdk';
import type { AIClient, AICompletion } from '@compaction/core';
import { MissingCredentialsError } from '../missing-credentials-error.js';
import {
  DEFAULT_MODEL_ALIASES,
  type ModelAliasTable,
  resolveModelAlias,
} from '../model-aliases.js';
import { ModelCallError, toModelCallError } from '../model-call-error.js';
import { routeFingerprint } from '../route-fingerprint.js';

/** Settings of `createAnthropicClient`. */
export interface AnthropicClientSettings {
  /** A ready SDK instance; when given, `apiKey`, `baseURL`, `env`, `maxRetries` and `timeoutMs` are ignored. */
  client?: Anthropic;
  /** API key. Default: `env.ANTHROPIC_API_KEY`; required when no `client` is given. */
  apiKey?: string;
  /** Base URL of the messages API. Default: `env.ANTHROPIC_BASE_URL`, else `https://api.anthropic.com`. */
  baseURL?: string;
  /** Environment to read `ANTHROPIC_API_KEY` and `ANTHROPIC_BASE_URL` from. Default `{}`: pass `process.env` (or the CLI's `io.env`) explicitly. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Alias overrides, merged over `DEFAULT_MODEL_ALIASES.anthropic`. */
  models?: Partial<ModelAliasTable>;
  /** The SDK's own retry count (429, 5xx and connection errors, with backoff). Default 2, the SDK's default. */
  maxRetries?: number;
  /** The SDK's per-request timeout in milliseconds. Default 600000, the SDK's default. */
  timeoutMs?: number;
  /** `max_tokens` when a request names none (the messages API requires one). Default 2048. */
  defaultMaxTokens?: number;
}

/**
 * An `AIClient` over the `@anthropic-ai/sdk` messages API. Retries and timeouts are the SDK's
 * own; failures reject with a `ModelCallError` that says whether failing over can help.
 */
export function createAnthropicClient(settings: AnthropicClientSettings = {}): AIClient {
  const env = settings.env ?? {};
  let sdk = settings.client;
  if (!sdk) {
    const apiKey = settings.apiKey ?? env.ANTHROPIC_API_KEY?.trim();
    if (!apiKey) {
      throw new MissingCredentialsError({ provider: 'anthropic', envVar: 'ANTHROPIC_API_KEY' });
    }
    sdk = new Anthropic({
      apiKey,
      authToken: null,
      baseURL: settings.baseURL ?? (env.ANTHROPIC_BASE_URL?.trim() || 'https://api.anthropic.com'),
      maxRetries: settings.maxRetries ?? 2,
      timeout: settings.timeoutMs ?? 600_000,
    });
  }
  const client = sdk;
  const models = { ...DEFAULT_MODEL_ALIASES.anthropic, ...settings.models };
  const defaultMaxTokens = settings.defaultMaxTokens ?? 2048;

  const fingerprint = (model: string) =>
    routeFingerprint({ provider: 'anthropic', baseURL: client.baseURL, model });

  return {
    provider: 'anthropic',
    route(request) {
      return { fingerprint: fingerprint(resolveModelAlias(request.model, models)), stable: true };
    },
    async complete(request): Promise<AICompletion> {
      const model = resolveModelAlias(request.model, models);
      let response: Anthropic.Message;
      try {
        response = await client.messages.create(
          {
            model,
            system: request.system,
            messages: [{ role: 'user', content: request.prompt }],
            max_tokens: request.maxTokens ?? defaultMaxTokens,
            ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
          },
          { signal: request.signal },
        );
      } catch (error) {
        throw toModelCallError('anthropic', error);
      }
      const blocks = Array.isArray(response?.content) ? response.content : undefined;
      if (!blocks) {
        throw new ModelCallError({
          provider: 'anthropic',
          kind: 'malformed',
          message: 'anthropic: the response has no content blocks',
        });
      }
      const text = blocks.map((block) => (block.type === 'text' ? block.text : '')).join('');
      return {
        text,
        model: response.model ?? model,
        route: fingerprint(model),
        ...(response.usage
          ? {
              usage: {
                inputTokens: response.usage.input_tokens,
                outputTokens: response.usage.output_tokens,
              },
            }
          : {}),
      };
    },
  };
}
