import type { ArtifactKind } from '../storage/artifact-record.js';
import { DEFAULT_PROJECTION_POLICIES } from './default-projection-policies.js';
import { inferArtifactKind } from './infer-artifact-kind.js';
import type { ProjectionPolicy } from './projection-policy.js';

/**
 * The kind to index a result as when it is stored without a projection: the kind of the policy
 * its tool name routes to, or, when that is the generic fallback (or there is no tool name),
 * what the content looks like (`inferArtifactKind`).
 */
export function kindForTool(
  toolName: string | undefined,
  head: string,
  policies: readonly ProjectionPolicy[] = DEFAULT_PROJECTION_POLICIES,
): ArtifactKind {
  const policy = toolName ? policies.find((candidate) => candidate.matches(toolName)) : undefined;
  const kind = policy?.kind;
  return kind && kind !== 'tool_output' ? kind : inferArtifactKind(head);
}
