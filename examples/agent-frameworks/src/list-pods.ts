import { bigJsonResult } from '@compaction/core/test';

/** What every example agent is asked. */
export const QUESTION = 'Which pod failed, and why?';

/** The one domain tool of the examples: every pod of a cluster, about 2 MB of JSON. */
export const LIST_PODS = {
  name: 'list_pods',
  description: 'List every pod of the prod cluster as JSON.',
} as const;

/** Runs `list_pods`: 2 MiB of JSON with one OOMKilled pod among thousands. */
export function listPods(): string {
  return bigJsonResult();
}
