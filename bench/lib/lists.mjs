// Generated JSON lists for the informativeness benchmark: benign lists of the kinds agents
// fetch, each able to carry one planted anomaly at a given depth. Deterministic.

/** A seeded generator of numbers in [0, 1) (mulberry32). */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `length` hex digits drawn from `next`. */
export const hexOf = (next, length) =>
  Array.from({ length }, () => Math.floor(next() * 16).toString(16)).join('');

/** A pod list (`kubectl get pods -o json`) of `count` Running pods; `planted` is Evicted. */
export function podList(count, planted = -1) {
  const next = random(11);
  const items = Array.from({ length: count }, (_, i) => {
    const name = `api-${hexOf(next, 9)}-${hexOf(next, 5)}`;
    const at = new Date(Date.UTC(2026, 2, 1, 6) + i * 45_000).toISOString();
    const status =
      i === planted
        ? {
            phase: 'Failed',
            reason: 'Evicted',
            message: 'The node was low on resource: memory.',
            startTime: at,
          }
        : {
            phase: 'Running',
            podIP: `10.4.${i % 200}.${(i * 3) % 250}`,
            startTime: at,
            conditions: [
              { type: 'Ready', status: 'True', lastTransitionTime: at },
              { type: 'PodScheduled', status: 'True', lastTransitionTime: at },
            ],
            containerStatuses: [
              { name: 'api', ready: true, restartCount: 0, state: { running: { startedAt: at } } },
            ],
          };
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: 'prod',
        uid: `${hexOf(next, 8)}-${hexOf(next, 4)}-${hexOf(next, 4)}-${hexOf(next, 12)}`,
        labels: { app: 'api', 'pod-template-hash': hexOf(next, 9) },
        managedFields: [
          {
            manager: 'kube-controller-manager',
            operation: 'Update',
            time: at,
            fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': {} },
          },
        ],
      },
      spec: {
        nodeName: `worker-${i % 6}`,
        priorityClassName: 'system-node-critical',
        containers: [
          {
            name: 'api',
            image: 'ghcr.io/acme/api:3.2.1',
            readinessProbe: { httpGet: { path: '/ready', port: 8080 }, failureThreshold: 3 },
          },
        ],
        restartPolicy: 'Always',
      },
      status,
    };
  });
  return { apiVersion: 'v1', kind: 'PodList', items };
}

/** Workflow runs of a CI service, all successful but `planted`. */
export function workflowRuns(count, planted = -1) {
  const next = random(12);
  const runs = Array.from({ length: count }, (_, i) => {
    const id = 9_100_000_000 + i * 53 + Math.floor(next() * 40);
    return {
      id,
      name: ['build', 'test', 'deploy'][i % 3],
      run_number: 4000 + i,
      head_sha: hexOf(next, 40),
      event: 'push',
      status: 'completed',
      conclusion: i === planted ? 'failure' : 'success',
      html_url: `https://github.com/acme/web/actions/runs/${id}`,
      jobs_url: `https://api.github.com/repos/acme/web/actions/runs/${id}/jobs`,
      created_at: new Date(Date.UTC(2026, 2, 2) + i * 900_000).toISOString(),
    };
  });
  return { total_count: count, workflow_runs: runs };
}

/** HTTP request records of a service, all 200 but `planted` (a 500 with an error). */
export function requestLog(count, planted = -1) {
  const next = random(13);
  return Array.from({ length: count }, (_, i) => ({
    request_id: `req-${hexOf(next, 12)}`,
    ts: new Date(Date.UTC(2026, 2, 3) + i * 1_200).toISOString(),
    method: i % 5 === 0 ? 'POST' : 'GET',
    path: `/v1/orders/${1000 + (i % 97)}`,
    status: i === planted ? 500 : 200,
    latency_ms: 12 + Math.floor(next() * 30),
    ...(i === planted ? { error: 'upstream connect error: connection refused' } : {}),
    user_agent: 'okhttp/4.12.0',
  }));
}

/** A Kubernetes server-side Table of pods (`cells` rows with the object beside them). */
export function podTable(count, planted = -1) {
  const next = random(14);
  const rows = Array.from({ length: count }, (_, i) => {
    const name = `worker-${hexOf(next, 8)}-${hexOf(next, 5)}`;
    const status = i === planted ? 'CrashLoopBackOff' : 'Running';
    return {
      cells: [name, i === planted ? '0/1' : '1/1', status, i === planted ? 17 : 0, '3d'],
      object: {
        kind: 'PartialObjectMetadata',
        apiVersion: 'meta.k8s.io/v1',
        metadata: {
          name,
          namespace: 'batch',
          uid: `${hexOf(next, 8)}-${hexOf(next, 4)}-${hexOf(next, 4)}-${hexOf(next, 12)}`,
          creationTimestamp: new Date(Date.UTC(2026, 1, 20) + i * 7_000).toISOString(),
          labels: { app: 'worker', 'controller-revision-hash': hexOf(next, 10) },
        },
      },
    };
  });
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    columnDefinitions: ['Name', 'Ready', 'Status', 'Restarts', 'Age'].map((name) => ({
      name,
      type: name === 'Restarts' ? 'integer' : 'string',
      format: name === 'Name' ? 'name' : '',
      description: `${name} of the pod`,
      priority: 0,
    })),
    rows,
  };
}
