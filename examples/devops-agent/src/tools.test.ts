import { describe, expect, it } from 'vitest';
import { NEEDLES, ToolFailure, tool } from './tools.js';

describe('the demo tools', () => {
  it('fetch_logs returns the logs of the pod asked for', async () => {
    const logs = await tool('fetch_logs').run({ pod: NEEDLES.pods.podName });
    const failure = logs.split('\n').find((line) => line.includes(NEEDLES.logs.transactionId))!;
    expect(failure).toContain(`ERROR ${NEEDLES.pods.podName} db: ${NEEDLES.logs.phrase}`);
  });

  it('fetch_logs of a healthy pod holds no failure', async () => {
    const pods = JSON.parse(await tool('kubectl_get_pods').run({})) as {
      items: Array<{ metadata: { name: string } }>;
    };
    const healthy = pods.items.find((pod) => pod.metadata.name !== NEEDLES.pods.podName)!;
    const logs = await tool('fetch_logs').run({ pod: healthy.metadata.name });
    expect(logs).toContain(healthy.metadata.name);
    expect(logs).not.toContain(NEEDLES.logs.phrase);
  });

  it('fetch_logs refuses a pod the namespace does not have', async () => {
    await expect(tool('fetch_logs').run({ pod: 'payments-7c9f5d8b6-x2x9q' })).rejects.toThrow(
      ToolFailure,
    );
  });
});
