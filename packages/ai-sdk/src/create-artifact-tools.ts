import type { ArtifactToolDefinition, ArtifactToolset } from '@compaction/core';

/**
 * The input schema of an artifact tool as a Standard Schema with its JSON Schema attached,
 * which `ai` 6 and 7 both accept for `inputSchema` without importing either. Arguments are
 * checked by the toolset itself, which answers a bad one with an `error: …` line the model can
 * act on, so validation here lets every object through.
 */
export interface ArtifactToolInputSchema {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'compaction';
    readonly validate: (
      value: unknown,
    ) => { value: Record<string, unknown> } | { issues: Array<{ message: string }> };
    readonly jsonSchema: {
      readonly input: (options?: unknown) => Record<string, unknown>;
      readonly output: (options?: unknown) => Record<string, unknown>;
    };
  };
}

/** One artifact tool in the AI SDK's `tools` shape. */
export interface AiSdkArtifactTool {
  readonly description: string;
  readonly inputSchema: ArtifactToolInputSchema;
  execute(input: Record<string, unknown>, options: { abortSignal?: AbortSignal }): Promise<string>;
}

function inputSchema(definition: ArtifactToolDefinition): ArtifactToolInputSchema {
  const schema = () => ({ ...definition.parameters });
  return {
    '~standard': {
      version: 1,
      vendor: 'compaction',
      validate: (value) =>
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? { value: value as Record<string, unknown> }
          : { issues: [{ message: 'arguments must be an object' }] },
      jsonSchema: { input: schema, output: schema },
    },
  };
}

/**
 * The artifact tools (`artifact_read`, `artifact_search`) for `generateText` / `streamText`:
 * `tools: { ...yourTools, ...createArtifactTools(artifacts.tools) }`, with `artifacts` from
 * `createArtifactMode`. Each call is answered by the toolset, so the model can page through and
 * search the full result a compacted view points at.
 */
export function createArtifactTools(toolset: ArtifactToolset): Record<string, AiSdkArtifactTool> {
  const tools: Record<string, AiSdkArtifactTool> = {};
  for (const definition of toolset.definitions) {
    tools[definition.name] = {
      description: definition.description,
      inputSchema: inputSchema(definition),
      execute: (input, options) =>
        toolset.call(
          definition.name,
          input,
          options?.abortSignal ? { signal: options.abortSignal } : {},
        ),
    };
  }
  return tools;
}
