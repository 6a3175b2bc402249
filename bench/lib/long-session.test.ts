import { describe, expect, it } from 'vitest';
import { longSession } from './long-session.mjs';

describe('longSession', () => {
  const session = longSession({ seed: 1 });
  const calls = session.turns.flatMap((turn) => turn.calls);

  it('is the same session for the same seed, another for another', () => {
    expect(JSON.stringify(longSession({ seed: 1 }))).toBe(JSON.stringify(session));
    expect(longSession({ seed: 2 }).turns[0]!.calls[0]!.output).not.toBe(calls[0]!.output);
  });

  it('has the mix of seed 001: 200+ calls, 7 user messages, results up to ~1 MB, failures', () => {
    expect(session.stats.calls).toBeGreaterThanOrEqual(200);
    expect(session.stats.userMessages).toBe(7);
    expect(session.stats.largestBytes).toBeGreaterThan(900_000);
    expect(calls.some((call) => call.isError)).toBe(true);
    expect(new Set(calls.map((call) => call.toolCallId)).size).toBe(calls.length);
  });

  it('plants each late answer in exactly one early result', () => {
    expect(session.questions.length).toBeGreaterThanOrEqual(5);
    for (const question of session.questions) {
      const holders = calls.filter((call) => call.output.includes(question.answer));
      expect(holders.map((call) => call.toolCallId)).toEqual([question.toolCallId]);
      expect(question.turn).toBeLessThan(session.turns.length / 4);
    }
  });
});
