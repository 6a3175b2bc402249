import fc from 'fast-check';

/** A deterministic pseudo-random source (mulberry32) for generated payloads. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hex(random: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += Math.floor(random() * 16).toString(16);
  return out;
}

/**
 * A `kubectl get pods -o json`-shaped list of `count` healthy pods (bulky bookkeeping included),
 * with `failed` set to the index of one Failed pod (an eviction with a reason) or -1.
 */
export function podList(count: number, failed = -1, seed = 1): { json: string; names: string[] } {
  const random = seeded(seed);
  const names: string[] = [];
  const items = Array.from({ length: count }, (_, i) => {
    const name = `web-${hex(random, 10)}-${hex(random, 5)}`;
    names.push(name);
    const started = new Date(Date.UTC(2026, 0, 1, 8, 0, 0) + i * 61_000).toISOString();
    const pod: Record<string, unknown> = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: 'shop',
        uid: `${hex(random, 8)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 12)}`,
        labels: { app: 'web', 'pod-template-hash': hex(random, 10) },
        managedFields: [
          {
            manager: 'kubelet',
            operation: 'Update',
            fieldsV1: {
              'f:status': { 'f:conditions': { '.': {}, 'k:{"type":"Ready"}': { '.': {} } } },
              'f:spec': { 'f:restartPolicy': {}, 'f:containers': {} },
            },
          },
        ],
      },
      spec: {
        nodeName: `node-${i % 4}`,
        restartPolicy: 'Always',
        containers: [
          {
            name: 'web',
            image: 'registry.example.com/web:1.4.2',
            livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, failureThreshold: 3 },
            resources: { limits: { memory: '256Mi', cpu: '500m' } },
          },
        ],
        tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists' }],
      },
      status: {
        phase: 'Running',
        podIP: `10.1.${i % 250}.${(i * 7) % 250}`,
        startTime: started,
        containerStatuses: [
          {
            name: 'web',
            ready: true,
            restartCount: 0,
            state: { running: { startedAt: started } },
            containerID: `containerd://${hex(random, 64)}`,
          },
        ],
      },
    };
    if (i === failed) {
      pod.status = {
        phase: 'Failed',
        reason: 'Evicted',
        message: 'The node was low on resource: memory.',
        startTime: started,
      };
    }
    return pod;
  });
  return { json: JSON.stringify({ apiVersion: 'v1', kind: 'PodList', items }, null, 2), names };
}

/** A GitHub-Actions-shaped list of workflow runs (ids repeated inside URLs). */
export function workflowRuns(
  count: number,
  failed = -1,
  seed = 2,
): { json: string; ids: number[] } {
  const random = seeded(seed);
  const ids: number[] = [];
  const runs = Array.from({ length: count }, (_, i) => {
    const id = 7_000_000_000 + i * 37 + Math.floor(random() * 30);
    ids.push(id);
    const sha = hex(random, 40);
    return {
      id,
      name: ['ci', 'lint', 'release'][i % 3],
      head_branch: 'main',
      head_sha: sha,
      run_number: 1000 + i,
      event: 'push',
      status: 'completed',
      conclusion: i === failed ? 'failure' : 'success',
      url: `https://api.github.com/repos/acme/shop/actions/runs/${id}`,
      html_url: `https://github.com/acme/shop/actions/runs/${id}`,
      jobs_url: `https://api.github.com/repos/acme/shop/actions/runs/${id}/jobs`,
      logs_url: `https://api.github.com/repos/acme/shop/actions/runs/${id}/logs`,
      created_at: new Date(Date.UTC(2026, 1, 1) + i * 600_000).toISOString(),
    };
  });
  return { json: JSON.stringify({ total_count: count, workflow_runs: runs }), ids };
}

/**
 * Arbitrary lists of records: an id-like field, a categorical state (one value dominant), a
 * nested object, a number, sometimes an extra key; wrapped or not in an envelope.
 */
export const recordList = fc
  .record({
    count: fc.integer({ min: 2, max: 60 }),
    states: fc.array(fc.constantFrom('ok', 'failed', 'pending', 'Running', 'error: OOMKilled'), {
      minLength: 1,
      maxLength: 3,
    }),
    seed: fc.integer({ min: 1, max: 1_000_000 }),
    envelope: fc.boolean(),
    nested: fc.boolean(),
    pretty: fc.boolean(),
    bulk: fc.integer({ min: 0, max: 200 }),
  })
  .map(({ count, states, seed, envelope, nested, pretty, bulk }) => {
    const random = seeded(seed);
    const records = Array.from({ length: count }, (_, i) => {
      const record: Record<string, unknown> = {
        id: `item-${String(i).padStart(4, '0')}`,
        state: random() < 0.85 ? states[0] : states[Math.floor(random() * states.length)],
        size: Math.floor(random() * 1000),
        detail: { owner: `team-${i % 5}`, note: 'x'.repeat(Math.floor(random() * bulk)) },
      };
      if (random() < 0.1) record.extra = { reason: 'rare key', code: Math.floor(random() * 9) };
      return nested ? { spec: record } : record;
    });
    const value = envelope ? { kind: 'List', total: count, items: records } : records;
    return JSON.stringify(value, null, pretty ? 2 : undefined);
  });
