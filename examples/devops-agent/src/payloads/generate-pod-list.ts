import { hex, pick, seededRandom } from './seeded-random.js';

/** What the generated pod list hides, so the demo can check the compacted views for it. */
export interface PodListNeedle {
  podName: string;
  reason: string;
  restartCount: number;
  uid: string;
}

const SERVICES = [
  'checkout',
  'cart',
  'payments',
  'ledger',
  'fraud-scoring',
  'notifications',
  'search',
  'catalog',
];
const NODES = Array.from(
  { length: 12 },
  (_, i) => `ip-10-42-${i + 1}-${17 + i}.eu-west-1.compute.internal`,
);

function pod(random: () => number, index: number, namespace: string, failing: boolean) {
  const service = SERVICES[index % SERVICES.length]!;
  const name = `${service}-${hex(random, 10)}-${hex(random, 5)}`;
  const uid = `${hex(random, 8)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 12)}`;
  const started = new Date(Date.UTC(2026, 10, 29, 6, 0, 0) + index * 37_000)
    .toISOString()
    .replace('.000', '');
  const container = {
    name: service,
    image: `registry.example.com/shop/${service}:2026.11.${(index % 28) + 1}`,
    imageID: `registry.example.com/shop/${service}@sha256:${hex(random, 64)}`,
    containerID: `containerd://${hex(random, 64)}`,
    ready: !failing,
    started: !failing,
    restartCount: failing ? 47 : Math.floor(random() * 2),
    state: failing
      ? {
          waiting: {
            reason: 'CrashLoopBackOff',
            message: `back-off 5m0s restarting failed container=${service} pod=${name}`,
          },
        }
      : { running: { startedAt: started } },
    lastState: failing
      ? {
          terminated: {
            exitCode: 137,
            reason: 'OOMKilled',
            startedAt: started,
            finishedAt: started,
          },
        }
      : {},
  };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      uid,
      resourceVersion: String(18_000_000 + index * 113),
      creationTimestamp: started,
      generateName: `${service}-${hex(random, 10)}-`,
      labels: {
        app: service,
        'pod-template-hash': hex(random, 10),
        tier: pick(random, ['web', 'worker', 'batch']),
      },
      annotations: {
        'kubectl.kubernetes.io/restartedAt': started,
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': '9090',
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: `${service}-${hex(random, 10)}`,
          uid: hex(random, 32),
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      nodeName: pick(random, NODES),
      serviceAccountName: service,
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      containers: [
        {
          name: service,
          image: container.image,
          ports: [
            { containerPort: 8080, protocol: 'TCP' },
            { containerPort: 9090, name: 'metrics', protocol: 'TCP' },
          ],
          env: [
            { name: 'SERVICE_NAME', value: service },
            { name: 'DB_POOL_MAX', value: failing ? '5' : '50' },
            {
              name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
              value: 'http://otel-collector.observability:4317',
            },
          ],
          resources: {
            requests: { cpu: '250m', memory: '256Mi' },
            limits: { cpu: '1', memory: failing ? '128Mi' : '512Mi' },
          },
          livenessProbe: {
            httpGet: { path: '/healthz', port: 8080 },
            periodSeconds: 10,
            failureThreshold: 3,
          },
          volumeMounts: [
            {
              name: 'kube-api-access',
              mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
              readOnly: true,
            },
          ],
        },
      ],
      tolerations: [
        {
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
        {
          key: 'node.kubernetes.io/unreachable',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
      ],
    },
    status: {
      phase: 'Running',
      conditions: [
        { type: 'Initialized', status: 'True', lastTransitionTime: started },
        { type: 'Ready', status: failing ? 'False' : 'True', lastTransitionTime: started },
        {
          type: 'ContainersReady',
          status: failing ? 'False' : 'True',
          lastTransitionTime: started,
        },
        { type: 'PodScheduled', status: 'True', lastTransitionTime: started },
      ],
      hostIP: `10.42.${(index % 12) + 1}.${17 + (index % 12)}`,
      podIP: `10.244.${index % 250}.${(index * 7) % 250}`,
      startTime: started,
      qosClass: 'Burstable',
      containerStatuses: [container],
    },
  };
}

/**
 * A `kubectl get pods -o json` of a busy namespace (about 1 MB pretty-printed), with one payments pod
 * in CrashLoopBackOff after OOM kills buried at about 60% of the list.
 */
export function generatePodList(options: { pods?: number; seed?: number } = {}): {
  json: string;
  /** The name of every pod, in list order. */
  names: string[];
  needle: PodListNeedle;
} {
  const count = options.pods ?? 220;
  const random = seededRandom(options.seed ?? 7);
  let failingIndex = Math.floor(count * 0.61);
  while (SERVICES[failingIndex % SERVICES.length] !== 'payments') failingIndex++;
  const items = Array.from({ length: count }, (_, i) => pod(random, i, 'shop', i === failingIndex));
  const failing = items[failingIndex]!;
  const list = {
    apiVersion: 'v1',
    kind: 'PodList',
    metadata: { resourceVersion: '18093311' },
    items,
  };
  return {
    json: `${JSON.stringify(list, null, 2)}\n`,
    names: items.map((item) => item.metadata.name),
    needle: {
      podName: failing.metadata.name,
      reason: 'OOMKilled',
      restartCount: 47,
      uid: failing.metadata.uid,
    },
  };
}
