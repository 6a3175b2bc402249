import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findHits, relevanceTerms } from '../engine/relevance.js';
import { type JsonInventory, minifyRange, scanJson, unitStart } from './json-inventory.js';

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

/** `json` with the content of every recorded key replaced by spaces (offsets unchanged). */
function blankKeys(json: string, inventory: JsonInventory): string {
  const chars = json.split('');
  for (let i = 1; i < inventory.count; i++) {
    const key = inventory.keyStart[i]!;
    if (key < 0) continue;
    for (let k = key + 1; json.charCodeAt(k) !== 0x22 || json.charCodeAt(k - 1) === 0x5c; k++) {
      chars[k] = ' ';
    }
  }
  return chars.join('');
}

/**
 * `json` with the letter of each `\\n`-like escape replaced by a space: in a string, an escaped
 * separator separates words, as the character it stands for would.
 */
function separatorEscapesAsSpaces(json: string): string {
  let out = '';
  for (let i = 0; i < json.length; i++) {
    const c = json[i]!;
    if (c === '\\' && i + 1 < json.length) {
      const e = json[i + 1]!;
      out += c + ('bfnrt'.includes(e) ? ' ' : e);
      i++;
    } else out += c;
  }
  return out;
}

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
        // Keys name settings, not failures: the text scan of the document with its keys blanked.
        const hits = findHits(blankKeys(json, inventory), terms, 1);
        const first = terms.findIndex((term) => term.kind === 'error');
        expect(inventory.errorAt).toEqual(hits.positions);
        expect(inventory.errorWord).toEqual(hits.termOf.map((term) => term - first));
      }),
      { numRuns: 2000 },
    );
  });

  // Strings longer than the scanner's short-string loop are finished by native searches: the
  // same rules must hold there, with escapes, controls and error words anywhere in them.
  const letterPieces = [
    'a',
    'word ',
    'error',
    'Failed',
    'exit code 1',
    'exit status: 0',
    'timed out',
    'ailed',
    'efused',
    'raceback',
    'x_',
    '-',
    '.',
    ' ',
    '\\n',
    '\\t',
    '\\f',
    '\\r',
    '\\b',
    '\\"',
    '\\\\',
    '\\/',
    '\\u00e9',
    '\\uD83D\\uDE00',
    'é',
    '日本',
  ];
  const longContent = (pieces: string[]) =>
    fc.array(fc.constantFrom(...pieces), { minLength: 12, maxLength: 80 }).map((p) => p.join(''));
  const longDocument = (content: fc.Arbitrary<string>) =>
    fc
      .tuple(fc.array(content, { minLength: 1, maxLength: 4 }), fc.boolean())
      .map(([contents, pretty]) =>
        contents.length === 1
          ? `"${contents[0]}"`
          : `{${contents.map((c, i) => `"k${i}":${pretty ? ' ' : ''}"${c}"`).join(',\n')}}`,
      );
  const isAscii = (text: string) => Buffer.byteLength(text) === text.length;

  it('accepts exactly what JSON.parse accepts in long strings', () => {
    const pieces = [
      ...letterPieces,
      '😀',
      '\ud800',
      '\n',
      '\u0001',
      '\t',
      '\\x',
      '\\u12',
      '"',
      '\\',
    ];
    fc.assert(
      fc.property(longDocument(longContent(pieces)), (text) => {
        expect(scanJson(text, 1_000_000) !== undefined).toBe(parses(text));
        expect(scanJson(text, 1_000_000, isAscii(text)) !== undefined).toBe(parses(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('measures long strings and finds their error-like words as the text scan does', () => {
    const terms = relevanceTerms({ words: [], preserveKeys: [], json: true });
    const first = terms.findIndex((term) => term.kind === 'error');
    fc.assert(
      fc.property(longDocument(longContent([...letterPieces, '😀', '\ud800'])), (text) => {
        const inventory = scanJson(text, 1_000_000, isAscii(text))!;
        expect(inventory.valueBytes[0]).toBe(Buffer.byteLength(minifyRange(text, 0, text.length)));
        for (let i = 1; i < inventory.count; i++) {
          const unit = minifyRange(text, unitStart(inventory, i), inventory.end[i]!);
          expect(inventory.unitBytes[i]).toBe(Buffer.byteLength(unit));
        }
      }),
      { numRuns: 2000 },
    );
    // (The text scan also reports a word starting at an escape letter, as in `\\failed`; the
    // scanner does not, whatever the string's length: see the next test.)
    const plain = letterPieces.filter((piece) => !['ailed', 'efused', 'raceback'].includes(piece));
    fc.assert(
      fc.property(longDocument(longContent(plain)), (text) => {
        const inventory = scanJson(text, 1_000_000, isAscii(text))!;
        const hits = findHits(separatorEscapesAsSpaces(blankKeys(text, inventory)), terms, 1);
        expect(inventory.errorAt).toEqual(hits.positions);
        expect(inventory.errorWord).toEqual(hits.termOf.map((term) => term - first));
      }),
      { numRuns: 2000 },
    );
  });

  it('never starts an error word at an escape letter, in short or long strings', () => {
    for (const pad of ['', 'a '.repeat(40)]) {
      for (const [content, hit] of [
        ['\\failed', false],
        ['\\refused', false],
        ['\\timed out', false],
        ['\\\\failed', true],
        ['\\"failed', true],
        ['\\\\\\failed', false],
      ] as const) {
        const text = `"${pad}${content}"`;
        const inventory = scanJson(text, 10)!;
        expect(inventory.errorAt.length, text).toBe(hit ? 1 : 0);
      }
    }
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
