import { describe, expect, it } from 'vitest';
import { generateServiceLogs } from './generate-service-logs.js';

const POD = 'payments-4ee3f3a9aa-62a5e';

describe('generateServiceLogs', () => {
  it('writes the logs of the pod asked for: its failure line and every record name it', () => {
    const { text, needle } = generateServiceLogs({ pod: POD, bytes: 64 * 1024 });
    const failure = text.split('\n').find((line) => line.includes(needle.transactionId))!;
    expect(failure).toContain(`ERROR ${POD} db: ${needle.phrase}`);
    expect(text.slice(needle.offset)).toMatch(new RegExp(`^\\S+ ERROR ${POD} `));
    const records = text
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { pod: string });
    expect(records.length).toBeGreaterThan(0);
    expect(records.filter((record) => record.pod !== POD)).toEqual([]);
  });

  it('writes routine logs, and says so, for a pod that did not fail', () => {
    const { text } = generateServiceLogs({ pod: 'checkout-00fb86738b-42c83', failure: false });
    expect(text).not.toMatch(/ERROR|exhausted/);
    expect(text.trimEnd().split('\n').at(-1)).toContain('0 errors');
  });
});
