import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minifyRange, scanJson, unitStart } from './json-inventory.js';
import { findHits, relevanceTerms } from './relevance.js';

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

// Valid JSON texts, and near misses made by cutting, splicing or corrupting them.
const documents = fc
  .tuple(fc.jsonValue({ maxDepth: 5, stringUnit: 'binary' }), fc.boolean())
  .map(([value, pretty]) => JSON.stringify(value, null, pretty ? 2 : undefined) ?? 'null');
const nearMisses = fc.oneof(
  documents,
  documents.chain((text) =>
    fc.oneof(
      fc.integer({ min: 0, max: text.length }).map((at) => text.slice(0, at)),
      fc
        .tuple(
          fc.integer({ min: 0, max: text.length }),
          fc.constantFrom(
            ',',
            ':',
            '"',
            '}',
            ']',
            '{',
            '[',
            '\\',
            '\u0001',
            '-',
            '.',
            'e',
            '01',
            'tru',
            ' ',
          ),
        )
        .map(([at, junk]) => text.slice(0, at) + junk + text.slice(at)),
    ),
  ),
  fc.string({ maxLength: 30 }),
);

describe('scanJson', () => {
  it('accepts exactly what JSON.parse accepts', () => {
    fc.assert(
      fc.property(nearMisses, (text) => {
        expect(scanJson(text, 1_000_000) !== undefined).toBe(parses(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('measures minified UTF-8 sizes of the document and of every unit', () => {
    fc.assert(
      fc.property(documents, (text) => {
        const inventory = scanJson(text, 1_000_000)!;
        const minified = minifyRange(text, 0, text.length);
        expect(inventory.valueBytes[0]).toBe(Buffer.byteLength(minified));
        expect(JSON.parse(minified)).toEqual(JSON.parse(text));
        for (let i = 1; i < inventory.count; i++) {
          const unit = minifyRange(text, unitStart(inventory, i), inventory.end[i]!);
          expect(inventory.unitBytes[i]).toBe(Buffer.byteLength(unit));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('finds the same error-like words as the text scan', () => {
    const words = fc.constantFrom(
      'error',
      'Errors',
      'FAILED',
      'failure',
      'fatal',
      'Exception',
      'traceback',
      'panic',
      'critical',
      'denied',
      'refused',
      'timed out',
      'exit code 2',
      'exit status: 0',
      'CrashLoopBackOff',
      'oomkilled',
      'terror',
      'ok',
      'x_error',
      '-error',
      'the',
      'timed',
      'exit',
      ' ',
      '.',
      '\\n',
      'é',
    );
    const text = fc.array(words, { maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text), { maxLength: 6 }), (pairs) => {
        const json = JSON.stringify(Object.fromEntries(pairs.map(([k, v], i) => [`${i}${k}`, v])));
        const inventory = scanJson(json, 1_000_000)!;
        const terms = relevanceTerms({ words: [], preserveKeys: [], json: true });
        const hits = findHits(json, terms, 1);
        const first = terms.findIndex((term) => term.kind === 'error');
        expect(inventory.errorAt).toEqual(hits.positions);
        expect(inventory.errorWord).toEqual(hits.termOf.map((term) => term - first));
      }),
      { numRuns: 2000 },
    );
  });

  it('counts values past the node limit without recording them', () => {
    const text = JSON.stringify({ a: [1, 2, 3, { b: 4 }], c: 'x' });
    const inventory = scanJson(text, 3)!;
    expect(inventory.count).toBe(3);
    expect(inventory.truncated).toBe(true);
    expect(inventory.totalValues).toBe(7);
    expect(inventory.valueBytes[0]).toBe(text.length);
  });
});
