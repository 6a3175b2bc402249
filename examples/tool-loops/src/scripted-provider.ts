import {
  createProviderServer,
  type ProviderRequest,
  type ProviderServer,
} from '@compaction/distiller/test';

/**
 * Without an API key the examples talk to a local OpenAI/Anthropic-compatible server playing a
 * model that follows the intended path: call fetch_logs, read the artifact id from the tool
 * message, search the artifact for errors, then answer with the line it found. The SDK, the
 * HTTP and the tool loop are all real; only the model's decisions are scripted.
 */
export function startScriptedModel(): Promise<ProviderServer> {
  return createProviderServer({
    handler: (request: ProviderRequest) => {
      const results = request.toolResults;
      if (results.length === 0) {
        return {
          toolCalls: [{ id: 'call_logs', name: 'fetch_logs', arguments: { service: 'payments' } }],
        };
      }
      const last = results[results.length - 1]!.content;
      if (results.length === 1) {
        const id = /art_[0-9a-f]+/.exec(last)?.[0];
        if (!id) return { text: `The logs came back inline: ${last.slice(0, 200)}` };
        return {
          toolCalls: [
            { id: 'call_search', name: 'artifact_search', arguments: { id, pattern: 'ERROR' } },
          ],
        };
      }
      const line =
        last.split('\n').find((text) => text.includes('ERROR')) ?? '(no error line found)';
      return {
        text: `Payments fail because the database pool is exhausted. The failing line: ${line.trim()}`,
      };
    },
  });
}
