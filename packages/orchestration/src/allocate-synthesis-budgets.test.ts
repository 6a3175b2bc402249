import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocateSynthesisBudgets,
  budgetsFromContextWindow,
} from './allocate-synthesis-budgets.js';

const settings = { perResultBytes: 65_536, totalBytes: 196_608, distilledBytes: 4096 };

describe('allocateSynthesisBudgets', () => {
  it('gives small results what they need and splits the rest fairly', () => {
    const budgets = allocateSynthesisBudgets(
      [
        { id: 'a', bytes: 1000, willDistill: false },
        { id: 'b', bytes: 5_000_000, willDistill: false },
        { id: 'c', bytes: 5_000_000, willDistill: false },
        { id: 'd', bytes: 5_000_000, willDistill: false },
        { id: 'e', bytes: 5_000_000, willDistill: false },
      ],
      settings,
    );
    expect(budgets.get('a')).toBe(1000);
    expect(budgets.get('b')).toBe(Math.floor((196_608 - 1000) / 4));
    const total = [...budgets.values()].reduce((sum, value) => sum + value, 0);
    expect(total).toBeLessThanOrEqual(196_608);
  });

  it('sizes a result that will be distilled at its post-distill footprint, so it does not starve the rest', () => {
    const requests = [
      { id: 'huge', bytes: 3_000_000, willDistill: true },
      { id: 'x', bytes: 90_000, willDistill: false },
      { id: 'y', bytes: 90_000, willDistill: false },
      { id: 'z', bytes: 90_000, willDistill: false },
    ];
    const aware = allocateSynthesisBudgets(requests, settings);
    expect(aware.get('huge')).toBe(4096);
    expect(aware.get('x')).toBe(Math.min(65_536, Math.floor((196_608 - 4096) / 3)));
    const naive = allocateSynthesisBudgets(
      requests.map((r) => ({ ...r, willDistill: false })),
      settings,
    );
    expect(naive.get('x')!).toBeLessThan(aware.get('x')!);
  });

  it('never exceeds the total or the per-result cap, and never gives more than asked (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ bytes: fc.nat({ max: 10_000_000 }), willDistill: fc.boolean() }), {
          maxLength: 40,
        }),
        fc.integer({ min: 1, max: 300_000 }),
        fc.integer({ min: 1, max: 300_000 }),
        (items, perResultBytes, totalBytes) => {
          const requests = items.map((item, i) => ({ id: `s${i}`, ...item }));
          const budgets = allocateSynthesisBudgets(requests, {
            perResultBytes,
            totalBytes,
            distilledBytes: 4096,
          });
          let sum = 0;
          for (const request of requests) {
            const budget = budgets.get(request.id)!;
            expect(budget).toBeGreaterThanOrEqual(0);
            expect(budget).toBeLessThanOrEqual(perResultBytes);
            expect(budget).toBeLessThanOrEqual(
              request.willDistill ? Math.min(4096, request.bytes) : request.bytes,
            );
            sum += budget;
          }
          expect(sum).toBeLessThanOrEqual(totalBytes);
          expect(
            allocateSynthesisBudgets(requests, {
              perResultBytes,
              totalBytes,
              distilledBytes: 4096,
            }),
          ).toEqual(budgets);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('leaves out results that cannot get the minimum instead of overrunning', () => {
    const requests = Array.from({ length: 10 }, (_, i) => ({
      id: `s${i}`,
      bytes: 10_000,
      willDistill: false,
    }));
    const budgets = allocateSynthesisBudgets(requests, {
      ...settings,
      totalBytes: 2000,
      minimumBytes: 512,
    });
    const granted = [...budgets.values()].filter((value) => value > 0);
    expect(granted.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2000);
    expect(granted.every((value) => value >= 512 || value === 0)).toBe(true);
  });

  it('refuses non-positive settings', () => {
    expect(() => allocateSynthesisBudgets([], { ...settings, totalBytes: 0 })).toThrow(
      /totalBytes/,
    );
  });
});

describe('budgetsFromContextWindow', () => {
  it('derives byte budgets from a context window', () => {
    expect(budgetsFromContextWindow({ contextWindowTokens: 200_000 })).toEqual({
      totalBytes: 175_000,
      perResultBytes: 58_333,
      totalTokens: 50_000,
      perResultTokens: 16_666,
    });
    expect(() => budgetsFromContextWindow({ contextWindowTokens: 0 })).toThrow();
    expect(() => budgetsFromContextWindow({ contextWindowTokens: 1000, totalShare: 2 })).toThrow();
  });
});
