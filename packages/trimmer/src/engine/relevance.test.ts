import { withJsonTape } from '@compaction/core';
import { EXHAUSTIVE } from '@compaction/test-runtime';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanJson } from '../json/json-inventory.js';
import { DEFAULT_VOCABULARY } from '../vocabulary.js';
import {
  errorWordBoundary,
  findHits,
  isWholeToken,
  queryTokens,
  queryWords,
  type RelevanceTerm,
  rangeScore,
  relevanceTerms,
} from './relevance.js';

function matchedTexts(text: string, words: string[], json = false): string[] {
  const terms = relevanceTerms({ words, preserveKeys: [], json });
  const hits = findHits(text, terms, 1);
  return hits.positions
    .map((at, h) => ({ at, term: terms[hits.termOf[h]!]! }))
    .filter(({ term }) => term.kind === 'query')
    .map(({ at }) => text.slice(at).split(/[\s,;=]/)[0]!);
}

describe('findHits attributes each match to its term', () => {
  it('as matching each term at every hit would, however often a text recurs (property)', () => {
    const piece = fc.constantFrom(
      'status',
      'status:',
      'x',
      '_',
      ' ',
      '=',
      'Status',
      'statuses',
      '\n',
      '"status"',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.boolean(), (pieces, json) => {
        const text = pieces.join('');
        const terms = relevanceTerms({ words: ['status'], preserveKeys: ['status'], json });
        const hits = findHits(text, terms, 1);
        // Each hit is where its own term matches, and no earlier term matches the same text.
        hits.positions.forEach((at, h) => {
          const term = hits.termOf[h]!;
          const own = new RegExp(terms[term]!.source, 'iy');
          own.lastIndex = at;
          const found = own.exec(text);
          expect(found).not.toBeNull();
          for (let t = 0; t < term; t++) {
            const earlier = new RegExp(terms[t]!.source, 'iy');
            earlier.lastIndex = at;
            expect(earlier.exec(text)?.[0].length).not.toBe(found![0].length);
          }
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe('findHits over a JSON tape', () => {
  it('finds from the tape search what the scan by pattern finds (property)', () => {
    const piece = fc.constantFrom(
      'run',
      'Runs',
      'RUNSES',
      'run_number',
      'rerun',
      'id',
      '"id"',
      '"ID" :',
      'latency_ms',
      'x',
      ' ',
      '-',
      '_',
      'é',
      '中',
      'Classes',
      'class',
      'classs',
    );
    const words = fc.subarray(['run', 'runs', 'id', 'latency_ms', 'ru', 'class', 'classes'], {
      minLength: 1,
    });
    fc.assert(
      fc.property(
        fc.array(fc.array(piece, { maxLength: 8 }), { maxLength: 12 }),
        words,
        fc.subarray(['id', 'run', 'Latency_MS']),
        fc.integer({ min: 1, max: 30 }),
        (strings, asked, preserveKeys, maxHits) => {
          const text = JSON.stringify(
            strings.map((parts, i) => ({ [parts.slice(0, 2).join('')]: parts.join(''), i })),
          );
          const terms = relevanceTerms({ words: asked, preserveKeys, json: true });
          const errors = { at: [], word: [] };
          const scanned = findHits(text, terms, 10, maxHits, undefined, errors);
          const searched = withJsonTape(text, (_tape, search) =>
            findHits(text, terms, 10, maxHits, undefined, errors, search),
          );
          expect(searched).toEqual({ ok: true, value: scanned });
          // A search without the check of whole words: its places are checked here.
          const fingerprinted = withJsonTape(text, (_tape, search) =>
            findHits(text, terms, 10, maxHits, undefined, errors, {
              candidates: (words, from) => search.candidates(words, from),
              stringCandidates: (words, from) => search.stringCandidates(words, from),
            }),
          );
          expect(fingerprinted).toEqual({ ok: true, value: scanned });
        },
      ),
      { numRuns: 300 },
    );
  });

  // A whole-token word is looked for only where a token starts: inside a run of 256 000 `x`, a
  // question of long words costs what one of shorter words does. Wall clock: `pnpm fuzz` only.
  it.runIf(EXHAUSTIVE)('does not compare long question words at each place inside a token', () => {
    const text = JSON.stringify([`${'x'.repeat(256_000)}`]);
    const words = (length: number) =>
      Array.from({ length: 4 }, (_, i) => `${'x'.repeat(length)}${i}`);
    const time = (asked: string[]) => {
      const terms = relevanceTerms({ words: asked, preserveKeys: [], json: true });
      let best = Number.POSITIVE_INFINITY;
      for (let round = 0; round < 5; round++) {
        const start = process.hrtime.bigint();
        withJsonTape(text, (_tape, search) =>
          findHits(text, terms, 10, 50_000, undefined, { at: [], word: [] }, search),
        );
        best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
      }
      return best;
    };
    time(words(24));
    // Compared at each place, four words of 120 cost five times four of 24.
    expect(time(words(120)) / time(words(24))).toBeLessThan(2);
  });
});

describe('rangeScore', () => {
  it('sums the weights of the distinct terms matched in a range, however many terms (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 70 }).chain((terms) =>
          fc.tuple(
            fc.constant(terms),
            fc.array(
              fc.oneof(
                fc.integer({ min: 0, max: terms - 1 }),
                // Terms 32 apart, where a bit per term would wrap.
                fc.constantFrom(...[0, 1, 31, 32, 33, 63, 64].filter((t) => t < terms)),
              ),
              { maxLength: 80 },
            ),
            fc.integer({ min: 0, max: 90 }),
            fc.integer({ min: 0, max: 90 }),
            fc.boolean(),
          ),
        ),
        ([count, termOf, from, length, errors]) => {
          const terms: RelevanceTerm[] = Array.from({ length: count }, (_, t) => ({
            kind: t % 3 === 0 ? 'error' : 'query',
            source: `w${t}`,
          }));
          const weights = terms.map((_, t) => 1 + t / 8);
          const hits = {
            positions: termOf.map((_, i) => i),
            termOf,
            weights,
            terms,
            queryMatched: true,
          };
          const to = from + length;
          const counted = new Set<number>();
          let expected = 0;
          termOf.forEach((term, at) => {
            if (at < from || at >= to || counted.has(term)) return;
            counted.add(term);
            if (errors || terms[term]!.kind !== 'error') expected += weights[term]!;
          });
          expect(rangeScore(hits, from, to, errors)).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('query words match whole tokens', () => {
  it('does not match inside a longer word or identifier', () => {
    expect(matchedTexts('alertstate=firing state=ok', ['state'])).toEqual(['state']);
    expect(matchedTexts('"f:restartPolicy":{} restart now', ['restart'])).toEqual(['restart']);
    expect(matchedTexts('rec-014001 rec-01400', ['rec-01400'])).toEqual(['rec-01400']);
  });

  it('matches across punctuation, and a plural or singular form', () => {
    expect(matchedTexts('coredns-64fd4b4794-p72lf', ['coredns'])).toEqual([
      'coredns-64fd4b4794-p72lf',
    ]);
    expect(matchedTexts('three pods, one pod', ['pod'])).toEqual(['pods', 'pod']);
    expect(matchedTexts('three pods, one pod', ['pods'])).toEqual(['pods', 'pod']);
    expect(matchedTexts('statuses and status', ['status'])).toEqual(['statuses', 'status']);
  });

  it('keeps matching inside text written without spaces', () => {
    expect(matchedTexts('全唐诗李白静夜思', ['李白'])).toEqual(['李白静夜思']);
    expect(isWholeToken('a李白b', 1, 3)).toBe(true);
    expect(isWholeToken('éstate', 1, 6)).toBe(false);
  });

  it('bounds what a question costs: each word and all of them together', () => {
    // A scan tries each word at every place of the text, so a word's length multiplies it.
    const [long] = queryWords({ userQuery: 'x'.repeat(16_000) });
    expect(long).toBe('x'.repeat(128));
    const many = queryWords({
      userQuery: Array.from({ length: 40 }, (_, i) => `${'y'.repeat(120)}${i}`).join(' '),
    });
    expect(many.reduce((units, word) => units + word.length, 0)).toBeLessThanOrEqual(512);
    expect(many.length).toBeGreaterThan(0);
    // A cut never splits a surrogate pair.
    const [wide] = queryWords({ userQuery: `a${'\u{20000}'.repeat(100)}` });
    expect(wide!.length).toBe(127);
    expect(/[\ud800-\udbff]$/.test(wide!)).toBe(false);
  });

  it('drops question words that name nothing', () => {
    expect(queryWords({ userQuery: 'Is anything wrong? What happened to job-7?' })).toEqual([
      'job-7',
    ]);
  });
});

describe('error-like words', () => {
  it('count inside identifiers at a capital, not inside lower-case words', () => {
    expect(errorWordBoundary('java.lang.OutOfMemoryError', 'java.lang.OutOfMemory'.length)).toBe(
      true,
    );
    expect(errorWordBoundary('SocketTimeoutException', 'SocketTimeout'.length)).toBe(true);
    expect(errorWordBoundary('terror', 1)).toBe(false);
    expect(errorWordBoundary('x error', 2)).toBe(true);
    const terms = relevanceTerms({ words: [], preserveKeys: [], json: false });
    const hits = findHits(
      'OutOfMemoryError; SocketTimeoutException; terror; ImagePullBackOff',
      terms,
      1,
    );
    expect(hits.termOf.map((term) => terms[term]!.source)).toEqual([
      'error',
      'exception',
      'backoff',
    ]);
  });

  it('are judged in JSON values, never in keys', () => {
    const json = JSON.stringify({
      livenessProbe: { failureThreshold: 3 },
      'f:restartPolicy': {},
      errorCount: 0,
      priorityClassName: 'ok',
      last: 'java.lang.OutOfMemoryError: heap',
      cause: 'SocketTimeoutException',
    });
    const inventory = scanJson(json, 1000)!;
    const words = inventory.errorWord.map((index) => DEFAULT_VOCABULARY.errorWords[index]);
    expect(words).toEqual(['error', 'exception']);
    for (const at of inventory.errorAt) {
      expect(json.slice(0, at)).toMatch(/:"[^"]*$/);
    }
  });

  it('never overlap: a word found covers its letters', () => {
    const inventory = scanJson(JSON.stringify({ reason: 'CrashLoopBackOff' }), 100)!;
    expect(inventory.errorWord.map((index) => DEFAULT_VOCABULARY.errorWords[index])).toEqual([
      'crashloopbackoff',
    ]);
  });
});

describe('query tokens', () => {
  const TOKEN = /[\p{L}\p{N}_][\p{L}\p{N}_.:/@#+-]*[\p{L}\p{N}_]|[\p{L}\p{N}]/gu;
  const pieces = [
    'a',
    'Z',
    '7',
    '_',
    '.',
    ':',
    '/',
    '@',
    '#',
    '+',
    '-',
    ' ',
    '\n',
    ',',
    '"',
    'é',
    '\u0301',
    '日本',
    'ß',
    '\u0663',
    '𝐀',
    '😀',
    '\ud800',
    '\udc00',
    '\u200d',
    'Ω',
    '\t',
    '=',
  ];

  it('are the matches of the token pattern, on any mix of letters, marks and punctuation', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        expect(queryTokens(text)).toEqual(Array.from(text.matchAll(TOKEN), (m) => m[0]));
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        expect(queryTokens(text)).toEqual(Array.from(text.matchAll(TOKEN), (m) => m[0]));
      }),
      { numRuns: 2000 },
    );
  });

  it('split a question into its words and identifiers', () => {
    expect(queryTokens('which pod (coredns-64fd4b4794-p72lf) failed? v1.2 _x_ -y- c++')).toEqual([
      'which',
      'pod',
      'coredns-64fd4b4794-p72lf',
      'failed',
      'v1.2',
      '_x_',
      'y',
      'c',
    ]);
  });
});
