import type { DiffNeedle } from './payloads/generate-diff.js';
import type { PodListNeedle } from './payloads/generate-pod-list.js';
import type { ServiceLogNeedle } from './payloads/generate-service-logs.js';

/** The facts the demo payloads hide. */
export interface BuriedFacts {
  pods: PodListNeedle;
  logs: ServiceLogNeedle;
  diff: DiffNeedle;
}

function parseJson(line: string): unknown {
  if (!line.startsWith('{') && !line.startsWith('[')) return undefined;
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function* objects(value: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(value)) for (const item of value) yield* objects(item);
  else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    yield record;
    for (const child of Object.values(record)) yield* objects(child);
  }
}

/**
 * True when a line shows the pod together with its reason: in a JSON view, the Kubernetes
 * object named `podName` holds a `reason` of `reason`; in text, one line names both.
 */
function podShownWithReason(lines: readonly string[], podName: string, reason: string): boolean {
  return lines.some((line) => {
    if (!line.includes(podName)) return false;
    const json = parseJson(line);
    if (json === undefined) return line.includes(reason);
    for (const record of objects(json)) {
      const metadata = record.metadata as { name?: unknown } | undefined;
      if (metadata?.name !== podName) continue;
      for (const inner of objects(record)) if (inner.reason === reason) return true;
    }
    return false;
  });
}

/**
 * Which of the buried facts reached `prompt`, each tested as its label states it: the pod with
 * its reason in the same record or line, the log's failure phrase on the line of its transaction
 * id, and the config change as the diff writes it (the removed line, then the added line).
 */
export function checkBuriedFacts(
  prompt: string,
  facts: BuriedFacts,
): Array<{ what: string; found: boolean }> {
  const lines = prompt.split('\n');
  const { pods, logs, diff } = facts;
  return [
    {
      what: `crash-looping pod ${pods.podName} with ${pods.reason} in its record`,
      found: podShownWithReason(lines, pods.podName, pods.reason),
    },
    {
      what: `log failure "${logs.phrase}" on the line of ${logs.transactionId}`,
      found: lines.some((line) => line.includes(logs.phrase) && line.includes(logs.transactionId)),
    },
    {
      what: `config change ${diff.removed} → ${diff.added} (the diff's - and + lines in ${diff.file})`,
      found: lines.some((line, i) => line === diff.addedLine && lines[i - 1] === diff.removedLine),
    },
  ];
}
