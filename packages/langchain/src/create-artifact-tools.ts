import type { ArtifactToolset } from '@compaction/core';
import { type DynamicStructuredTool, tool } from 'langchain';

/**
 * The artifact tools (`artifact_read`, `artifact_search`) as LangChain tools, for agents that
 * register tools themselves (`createCompactionMiddleware({ tools })` already registers them).
 * Each call is answered by the toolset; a bad argument comes back as an `error: …` line.
 */
export function createArtifactTools(toolset: ArtifactToolset): DynamicStructuredTool[] {
  return toolset.definitions.map((definition) =>
    tool(
      (input: unknown, config) =>
        toolset.call(definition.name, input, config?.signal ? { signal: config.signal } : {}),
      {
        name: definition.name,
        description: definition.description,
        schema: definition.parameters as Record<string, unknown>,
      },
    ),
  );
}
