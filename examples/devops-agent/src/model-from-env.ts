import type { AIClient } from '@compaction/core';
import { createAnthropicClient } from '@compaction/distiller/anthropic';
import { createOpenAIClient } from '@compaction/distiller/openai';

/**
 * The model client the environment asks for: OpenAI (or any OpenAI-compatible server through
 * OPENAI_BASE_URL) when OPENAI_API_KEY or OPENAI_BASE_URL is set, else Anthropic when
 * ANTHROPIC_API_KEY is set, else none (the demo then runs on the structural floor).
 */
export function modelFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): AIClient | undefined {
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) {
    // A local OpenAI-compatible server needs no key: the client then sends none.
    return createOpenAIClient({ env });
  }
  if (env.ANTHROPIC_API_KEY) return createAnthropicClient({ env });
  return undefined;
}
