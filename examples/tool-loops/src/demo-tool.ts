/** The one domain tool of the examples: 30 000 lines of service logs with one failure in them. */
export const FETCH_LOGS = {
  name: 'fetch_logs',
  description: 'Fetch the last hour of logs of a service.',
  parameters: {
    type: 'object',
    properties: { service: { type: 'string', description: 'Service name, such as payments.' } },
    required: ['service'],
    additionalProperties: false,
  },
} as const;

/** Runs `fetch_logs`: about 2.5 MB of routine lines and one failure at line 21 501. */
export function fetchLogs(service: string): string {
  const lines: string[] = [];
  for (let i = 0; i < 30_000; i++) {
    const stamp = new Date(Date.UTC(2026, 10, 30, 6, 0, 0) + i * 120).toISOString();
    lines.push(
      i === 21_500
        ? `${stamp} ERROR ${service} db: connection pool exhausted (max=5) txn=txn_4242`
        : `${stamp} INFO  ${service} request ok route=/api/v2/items latency=${(i * 7) % 90}ms`,
    );
  }
  return lines.join('\n');
}

/** The question both examples ask. */
export const QUESTION =
  'Why are payments failing? Check the payments logs and quote the failing line.';
