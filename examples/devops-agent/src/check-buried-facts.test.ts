import { describe, expect, it } from 'vitest';
import { type BuriedFacts, checkBuriedFacts } from './check-buried-facts.js';

const FACTS: BuriedFacts = {
  pods: { podName: 'payments-4ee3f3a9aa-62a5e', reason: 'OOMKilled', restartCount: 47, uid: 'u' },
  logs: {
    transactionId: 'txn_8899d818977d6aa22466',
    phrase: 'connection pool exhausted',
    offset: 0,
  },
  diff: {
    file: 'deploy/payments/values.yaml',
    removed: 'poolMax: 50',
    added: 'poolMax: 5',
    removedLine: '-    poolMax: 50',
    addedLine: '+    poolMax: 5',
  },
};

function pod(name: string, reason?: string) {
  return {
    metadata: { name },
    status: {
      containerStatuses: [
        { restartCount: 47, lastState: reason ? { terminated: { exitCode: 137, reason } } : {} },
      ],
    },
  };
}

const podView = (...items: unknown[]) =>
  `### step-1 · kubectl_get_pods\n${JSON.stringify({ items })}\n[trimmed: …]`;
const LOG_VIEW =
  '### step-4 · fetch_logs\n2026-11-30T06:03:13.743Z ERROR payments-4ee3f3a9aa-62a5e db: connection pool exhausted (max=5, waiting=212) while authorizing txn_8899d818977d6aa22466';
const DIFF_VIEW = [
  '### step-2 · git_diff',
  '   database:',
  '-    poolMax: 50',
  '+    poolMax: 5',
  '     poolTimeoutSeconds: 2',
].join('\n');

const found = (prompt: string) =>
  Object.fromEntries(
    checkBuriedFacts(prompt, FACTS).map((fact) => [fact.what.split(' ')[0], fact.found]),
  );

describe('checkBuriedFacts', () => {
  it('finds each fact where the views write it', () => {
    const prompt = [
      podView(pod('checkout-1'), pod(FACTS.pods.podName, 'OOMKilled')),
      DIFF_VIEW,
      LOG_VIEW,
    ].join('\n\n');
    expect(found(prompt)).toEqual({ 'crash-looping': true, log: true, config: true });
  });

  it('wants the OOMKilled reason in the pod’s own record, not just its name', () => {
    expect(found(podView(pod(FACTS.pods.podName)))['crash-looping']).toBe(false);
    // The reason on another pod's record is not this pod's.
    expect(
      found(podView(pod(FACTS.pods.podName), pod('payments-other', 'OOMKilled')))['crash-looping'],
    ).toBe(false);
  });

  it('accepts a text line that names the pod with its reason (a summary, a container fragment)', () => {
    expect(
      found(`${FACTS.pods.podName} restarted 47 times, last terminated OOMKilled`)['crash-looping'],
    ).toBe(true);
    expect(
      found(`${FACTS.pods.podName} is in CrashLoopBackOff\nsomething else was OOMKilled`)[
        'crash-looping'
      ],
    ).toBe(false);
  });

  it('wants the diff’s added line itself, after the removed one', () => {
    // The old check, `includes('poolMax: 5')`, passed on the removed line alone.
    expect(found('-    poolMax: 50').config).toBe(false);
    expect(found('-    poolMax: 50\n+    poolMax: 50').config).toBe(false);
    expect(found('+    poolMax: 5').config).toBe(false);
    expect(found('-    poolMax: 50\n+    poolMax: 55').config).toBe(false);
    expect(found(DIFF_VIEW).config).toBe(true);
  });

  it('wants the failure phrase on the line of its transaction id', () => {
    expect(found('retrying txn_8899d818977d6aa22466\nconnection pool exhausted').log).toBe(false);
    expect(found(LOG_VIEW).log).toBe(true);
  });
});
