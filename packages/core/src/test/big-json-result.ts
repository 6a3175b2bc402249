/**
 * A tool result of about `bytes` UTF-8 bytes of JSON (default 2 MiB): a pod list with one
 * failed pod (`checkout-7f9c`, reason `OOMKilled`) among healthy ones, and a 64-bit id that
 * must survive byte for byte.
 */
export function bigJsonResult(bytes = 2 * 1024 * 1024): string {
  const items: string[] = [];
  let size = 64;
  for (let i = 0; size < bytes; i++) {
    const failed = i === 4321;
    const item = JSON.stringify({
      name: failed ? 'checkout-7f9c' : `web-${i}`,
      namespace: 'prod',
      phase: failed ? 'Failed' : 'Running',
      ...(failed ? { reason: 'OOMKilled', traceId: 'TRACE_ID' } : {}),
      node: `node-${i % 40}`,
      labels: { app: failed ? 'checkout' : 'web', tier: 'frontend', release: `r${i % 7}` },
      restarts: failed ? 12 : i % 3,
    }).replace('"TRACE_ID"', '18446744073709551615');
    items.push(item);
    size += item.length + 1;
  }
  return `{"kind":"PodList","apiVersion":"v1","items":[${items.join(',')}]}`;
}
