import type { AIClient, AICompletion, AICompletionRequest } from '../ai-client.js';

/** Decides the answer to one request: a completion, text, or an error to reject with. */
export type ScriptedAnswer = (
  request: AICompletionRequest,
  callIndex: number,
) => AICompletion | string | Error | Promise<AICompletion | string | Error>;

/** An `AIClient` double that records requests. */
export interface ScriptedAIClient extends AIClient {
  readonly requests: AICompletionRequest[];
}

/**
 * An in-process `AIClient` for unit tests of code that takes the seam. Tests of the provider
 * clients themselves talk HTTP to a local server instead.
 */
export function createScriptedAIClient(
  answer: ScriptedAnswer,
  provider = 'scripted',
): ScriptedAIClient {
  const requests: AICompletionRequest[] = [];
  return {
    provider,
    requests,
    async complete(request) {
      request.signal?.throwIfAborted();
      const index = requests.length;
      requests.push(request);
      const result = await answer(request, index);
      if (result instanceof Error) throw result;
      return typeof result === 'string' ? { text: result } : result;
    },
  };
}
