import type { JsonValue } from '@compaction/core';
import { generateDiff } from './payloads/generate-diff.js';
import { generatePodList } from './payloads/generate-pod-list.js';
import { generateServiceLogs } from './payloads/generate-service-logs.js';

/** A tool the agent can call. Results are strings, as they arrive from real tools. */
export interface DemoTool {
  name: string;
  description: string;
  run(params: Record<string, JsonValue>): Promise<string>;
}

/** A tool failure with a structured code, as a dispatcher records it. */
export class ToolFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ToolFailure';
  }
}

const pods = generatePodList();
const logs = generateServiceLogs({ pod: pods.needle.podName });
const diff = generateDiff();
// Only the crash-looping pod's logs hold the failure; any other pod's are routine traffic.
const logsOf = (pod: string) =>
  pod === pods.needle.podName ? logs.text : generateServiceLogs({ pod, failure: false }).text;

/** What the generated payloads hide, so the demo can check each view for it. */
export const NEEDLES = { pods: pods.needle, logs: logs.needle, diff: diff.needle };

/**
 * Simulated DevOps tools over payloads the project generates itself (deterministic bytes):
 * a busy namespace's pods (~1 MB JSON), any pod's logs (~3 MB; the crash-looping pod's hold a
 * failure buried at 55%), the deploy diff (~360 KB), and a metrics query that times out.
 */
export const DEMO_TOOLS: readonly DemoTool[] = [
  {
    name: 'kubectl_get_pods',
    description: 'kubectl get pods -n NAMESPACE -o json',
    async run() {
      return pods.json;
    },
  },
  {
    name: 'fetch_logs',
    description: 'logs of one pod for the last 30 minutes',
    async run(params) {
      if (typeof params.pod !== 'string' || params.pod === '')
        throw new ToolFailure('invalid_params', 'pod is required');
      if (!pods.names.includes(params.pod))
        throw new ToolFailure('not_found', `pods "${params.pod}" not found`);
      return logsOf(params.pod);
    },
  },
  {
    name: 'git_diff',
    description: 'the diff of the last deploy',
    async run() {
      return diff.text;
    },
  },
  {
    name: 'prometheus_query',
    description: 'a PromQL range query',
    async run(params) {
      throw new ToolFailure(
        'timeout',
        `query ${JSON.stringify(params.query)} timed out after 30s (upstream 504)`,
      );
    },
  },
];

/** Finds a tool by name. */
export function tool(name: string): DemoTool {
  const found = DEMO_TOOLS.find((candidate) => candidate.name === name);
  if (!found) throw new ToolFailure('unknown_tool', `no tool named ${name}`);
  return found;
}
