import type { ProviderHandler } from '@compaction/distiller/test';

/**
 * A scripted model for `createProviderServer`, the way a model meets artifact mode: it calls
 * `tool`, finds the `art_` id in the view it gets back, calls `artifact_search` on it for
 * `pattern`, and answers with the first line of what the search returned. The SDK, the HTTP and
 * the agent loop stay real; only the model's choices are canned.
 */
export function artifactFollowingModel(settings: {
  tool: string;
  pattern: string;
}): ProviderHandler {
  return (request) => {
    const results = request.toolResults;
    if (results.length === 0)
      return { toolCalls: [{ id: 'call_1', name: settings.tool, arguments: {} }] };
    if (results.length === 1) {
      const id = /art_[0-9a-f]{24}/.exec(results[0]!.content)?.[0];
      if (!id)
        return { text: `No artifact pointer came back: ${results[0]!.content.slice(0, 200)}` };
      return {
        toolCalls: [
          { id: 'call_2', name: 'artifact_search', arguments: { id, pattern: settings.pattern } },
        ],
      };
    }
    return { text: `The stored result says: ${results[1]!.content.split('\n')[0]}` };
  };
}
