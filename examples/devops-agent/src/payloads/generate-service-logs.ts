import { hex, pick, seededRandom } from './seeded-random.js';

/** What the generated log hides. */
export interface ServiceLogNeedle {
  /** The transaction id on the buried failure line. */
  transactionId: string;
  /** A phrase of the buried failure. */
  phrase: string;
  /** Byte offset of the failure in the log; -1 in logs without it. */
  offset: number;
}

const ROUTES = [
  '/api/v2/checkout',
  '/api/v2/cart/items',
  '/api/v2/payments/authorize',
  '/healthz',
  '/metrics',
  '/api/v2/catalog/search',
];
const INFO_MESSAGES = [
  'request completed',
  'cache hit for product catalog page',
  'authorized payment with provider',
  'published event to topic orders.v3',
  'refreshed feature flags',
  'span exported to collector',
];

/** Options of `generateServiceLogs`. */
export interface ServiceLogOptions {
  /** The pod whose logs these are: the failure line and every JSON record name it. */
  pod: string;
  /** Whether the failure is buried in the logs. Default true. */
  failure?: boolean;
  /** Approximate size in bytes. Default 3 MiB. */
  bytes?: number;
  seed?: number;
}

/**
 * Several megabytes of one pod's logs (one line per request, JSON-ish and plain mixed) with one
 * failure buried at about 55%: a connection-pool exhaustion with a stack trace, followed by more
 * routine traffic, and a summary line at the very end.
 */
export function generateServiceLogs(options: ServiceLogOptions): {
  text: string;
  needle: ServiceLogNeedle;
} {
  const { pod } = options;
  const failure = options.failure ?? true;
  const target = options.bytes ?? 3 * 1024 * 1024;
  const random = seededRandom(options.seed ?? 11);
  const transactionId = `txn_${hex(random, 20)}`;
  const lines: string[] = [];
  let bytes = 0;
  let offset = -1;
  let time = Date.UTC(2026, 10, 30, 6, 0, 0);
  const failureAt = Math.floor(target * 0.55);
  while (bytes < target) {
    time += Math.floor(random() * 40);
    const stamp = new Date(time).toISOString();
    let line: string;
    if (failure && offset < 0 && bytes >= failureAt) {
      offset = bytes;
      line = [
        `${stamp} ERROR ${pod} db: connection pool exhausted (max=5, waiting=212) while authorizing ${transactionId}`,
        'Traceback (most recent call last):',
        '  File "/app/payments/authorize.py", line 218, in authorize',
        '    conn = pool.acquire(timeout=2.0)',
        '  File "/app/db/pool.py", line 91, in acquire',
        '    raise PoolExhausted(f"max={self.max} waiting={len(self.waiters)}")',
        'db.pool.PoolExhausted: max=5 waiting=212',
      ].join('\n');
    } else if (random() < 0.5) {
      const route = pick(random, ROUTES);
      const status = random() < 0.995 ? 200 : pick(random, [201, 204, 304, 404]);
      line = JSON.stringify({
        level: 'info',
        time: stamp,
        msg: pick(random, INFO_MESSAGES),
        route,
        status,
        duration_ms: Math.floor(random() * 180) + 3,
        trace_id: hex(random, 32),
        pod,
      });
    } else {
      line = `${stamp} INFO  ${pick(random, ['http', 'worker', 'scheduler'])} ${pick(random, INFO_MESSAGES)} route=${pick(random, ROUTES)} latency=${Math.floor(random() * 90) + 2}ms req=${hex(random, 16)}`;
    }
    lines.push(line);
    bytes += Buffer.byteLength(line) + 1;
  }
  lines.push(
    `${new Date(time + 5).toISOString()} INFO  summary: ${lines.length} requests, ${failure ? '1 error (PoolExhausted)' : '0 errors'}, p99 latency 183ms`,
  );
  return {
    text: `${lines.join('\n')}\n`,
    needle: { transactionId, phrase: 'connection pool exhausted', offset },
  };
}
