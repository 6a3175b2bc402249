import type { ArtifactToolset } from '@compaction/core';
import { type FunctionTool, tool } from '@openai/agents';

/**
 * The artifact tools (`artifact_read`, `artifact_search`) as Agents SDK function tools:
 * `new Agent({ tools: [...yourTools, ...createArtifactTools(artifacts.tools)] })`, with
 * `artifacts` from `createArtifactMode`. Each call is answered by the toolset; a bad argument
 * comes back to the model as an `error: …` line.
 */
export function createArtifactTools(toolset: ArtifactToolset): FunctionTool[] {
  return toolset.definitions.map((definition) =>
    tool({
      name: definition.name,
      description: definition.description,
      // Non-strict: the toolset validates, and strict mode would make every option required.
      parameters: { ...definition.parameters, additionalProperties: true } as never,
      strict: false,
      execute: (input, _context, details) =>
        toolset.call(definition.name, input, details?.signal ? { signal: details.signal } : {}),
    }),
  );
}
