import { buildJsonTape, type JsonTapeReader, withJsonTape } from '@compaction/core';
import { fixturesAvailable, listFixtures, readFixture } from '@compaction/fixtures';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordColumns } from '../readers/json-records.js';
import { inventoryFromTape } from './inventory-from-tape.js';
import { type JsonInventory, scanJson } from './json-inventory.js';
import { jsonSignatures } from './json-signatures.js';

const COLUMNS = [
  'kind',
  'parent',
  'next',
  'keyStart',
  'keyBytes',
  'keyEnd',
  'start',
  'end',
  'valueBytes',
  'unitBytes',
  'childIndex',
  'keyHash',
  'valueHash',
] as const;

/** The first difference between two inventories, or undefined when they agree field for field. */
function difference(expected: JsonInventory, actual: JsonInventory): string | undefined {
  for (const field of ['count', 'totalValues', 'truncated', 'minified'] as const) {
    if (expected[field] !== actual[field]) {
      return `${field}: expected ${expected[field]}, got ${actual[field]}`;
    }
  }
  if (actual.text !== expected.text) return 'text differs';
  for (const column of COLUMNS) {
    for (let i = 0; i < expected.count; i++) {
      if (expected[column][i] !== actual[column][i]) {
        return `${column}[${i}]: expected ${expected[column][i]}, got ${actual[column][i]}`;
      }
    }
  }
  for (const list of ['errorAt', 'errorWord'] as const) {
    const a = actual[list];
    const e = expected[list];
    if (a.length !== e.length) return `${list}.length: expected ${e.length}, got ${a.length}`;
    for (let i = 0; i < e.length; i++) {
      if (a[i] !== e[i]) return `${list}[${i}]: expected ${e[i]}, got ${a[i]}`;
    }
  }
  return undefined;
}

/**
 * The lent reader, saying whether `inventoryFromTape` took its pass in WebAssembly (a reader
 * that gives no inventory would leave the JavaScript loop to answer).
 */
function watched(reader: JsonTapeReader): { reader: JsonTapeReader; passes: number } {
  const watch = {
    passes: 0,
    reader: {
      candidates: (words: readonly string[], from: number) => reader.candidates(words, from),
      stringCandidates: (words: readonly string[], from: number) =>
        reader.stringCandidates(words, from),
      inventory: (maxValues: number) => {
        const inventory = reader.inventory(maxValues);
        if (inventory) watch.passes++;
        return inventory;
      },
      signatures: (borrow?: boolean) => reader.signatures(borrow),
      valueStatistics: (...args: Parameters<JsonTapeReader['valueStatistics']>) =>
        reader.valueStatistics(...args),
    },
  };
  return watch;
}

/**
 * Builds the inventories of `text` (by scanJson; off the lent tape with its reader's pass in
 * WebAssembly and its word search) and says how they differ (undefined: not at all).
 */
function compare(text: string, maxNodes: number, ascii: boolean): string | undefined {
  const expected = scanJson(text, maxNodes, ascii);
  const built = buildJsonTape(text);
  if (expected === undefined) {
    return built.ok || built.reason !== 'invalid'
      ? 'scanJson rejects, the tape does not'
      : undefined;
  }
  if (!built.ok) return `the tape says ${built.reason}`;
  const searched = withJsonTape(text, (tape, reader) => {
    const watch = watched(reader);
    const inWasm = inventoryFromTape(tape, maxNodes, watch.reader);
    return { inWasm, passes: watch.passes };
  });
  if (!searched.ok) return `the lent tape says ${searched.reason}`;
  if (searched.value.passes !== 1) return `${searched.value.passes} passes in WebAssembly`;
  const { inWasm } = searched.value;
  if (!inWasm) return 'the pass in WebAssembly did not run';
  const found = difference(expected, inWasm);
  if (found !== undefined) return `lent, in WebAssembly by word search: ${found}`;
  const bytes = Buffer.byteLength(inWasm.text, 'utf8');
  if (inWasm.textBytes !== bytes) return `textBytes: expected ${bytes}, got ${inWasm.textBytes}`;
  return undefined;
}

/** As trim-result computes it: as many UTF-8 bytes as UTF-16 units. */
const isAscii = (text: string) => Buffer.byteLength(text, 'utf8') === text.length;

function expectSame(text: string, maxNodes: number): void {
  expect(compare(text, maxNodes, false)).toBeUndefined();
  if (isAscii(text)) expect(compare(text, maxNodes, true)).toBeUndefined();
}

// JSON texts written token by token, so they hold what JSON.stringify never writes: raw lone
// surrogates, arbitrary escapes, whitespace anywhere, duplicate keys.
const ERROR_LIKE = [
  'Error',
  'error',
  'ERROR',
  'failed',
  'FAILED',
  'failure',
  'fatal',
  'exit code 1',
  'exit code 0',
  'exit code: 3',
  'Exit Code=0',
  'exit  code 1',
  'exit status 2',
  'OOMKilled',
  'CrashLoopBackOff',
  'timed out',
  'timed  out',
  'traceback',
  'panic',
  'critical',
  'denied',
  'refused',
  'exception',
];
// Escapes go in as written; every other piece is raw content, escaped only where it must be.
const escapePiece = fc
  .constantFrom(
    '\\n',
    '\\"',
    '\\\\',
    '\\/',
    '\\b',
    '\\f',
    '\\t',
    '\\r',
    '\\u0041',
    '\\u00e9',
    '\\uD83D\\uDE00',
    '\\ud800',
    '\\failed',
    '\\u00Fatal',
    '\\\\error',
    '\\"error',
    '\\nerror',
  )
  .map((written) => ({ escaped: written }));
const rawPiece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ERROR_LIKE) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'a',
      'x',
      '_',
      '9',
      ' ',
      ':',
      '-',
      '/',
      '.',
      'é',
      'ß',
      '中',
      'ア',
      '😀',
      '\u{10FFFF}',
      '\ud800',
      '\udbff',
      '\udc00',
      '\udfff',
      '\u0080',
      '\u07ff',
      '\u0800',
      '\uffff',
      'Kelvin \u212a',
      '\u0130',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 6, unit: 'binary' }) },
);
const stringPiece = fc.oneof(
  { weight: 4, arbitrary: rawPiece.map((raw) => ({ raw })) },
  { weight: 1, arbitrary: escapePiece },
);
// Raw content must not hold a quote, a backslash or a control character; escape the few a
// random string brings.
const rawSafe = (piece: string) =>
  piece.replace(/["\\\x00-\x1f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const stringToken = fc
  .array(stringPiece, { maxLength: 12 })
  // Long strings take scanJson's other path (past 48 units).
  .chain((pieces) =>
    fc.integer({ min: 0, max: 3 }).map((repeat) => {
      const content = pieces.map((piece) =>
        'escaped' in piece ? piece.escaped : rawSafe(piece.raw),
      );
      return `"${content.join('').repeat(repeat === 3 ? 6 : 1)}"`;
    }),
  );
const keyToken = fc.oneof(
  fc.constantFrom('"id"', '"error"', '"Error"', '"name"', '"é"', '"\ud800"', '"a\\"b"', '""'),
  stringToken,
);
const space = fc.constantFrom('', '', '', ' ', '\n  ', '\t', '\r\n', '    ');
const scalarToken = fc.oneof(
  fc.constantFrom('true', 'false', 'null', '0', '-0', '1e5', '-1.25E-3', '12345678901234567890'),
  fc.integer().map(String),
);
const { value: jsonText } = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalarToken,
    stringToken,
    fc
      .tuple(fc.array(fc.tuple(space, tie('value'), space), { maxLength: 5 }), space)
      .map(([items, inner]) =>
        items.length === 0
          ? `[${inner}]`
          : `[${items.map(([before, value, after]) => before + value + after).join(',')}]`,
      ),
    fc
      .tuple(
        fc.array(fc.tuple(space, keyToken, space, space, tie('value'), space), { maxLength: 5 }),
        space,
      )
      .map(([members, inner]) =>
        members.length === 0
          ? `{${inner}}`
          : `{${members.map(([s1, key, s2, s3, value, s4]) => `${s1 + key + s2}:${s3}${value}${s4}`).join(',')}}`,
      ),
  ),
}));
const documentText = fc
  .tuple(space, jsonText, space)
  .map(([before, text, after]) => before + text + after);

describe('inventoryFromTape', () => {
  it('equals scanJson field for field on random documents, whole and truncated', () => {
    fc.assert(
      fc.property(documentText, fc.integer({ min: 0, max: 40 }), (text, small) => {
        expect(JSON.parse(text)).toBeDefined();
        expectSame(text, 3_000_000);
        expectSame(text, small);
      }),
      { numRuns: 3000 },
    );
  });

  it('equals scanJson on minified and pretty re-serializations', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 6 }),
        fc.constantFrom(undefined, 1, 2, '\t'),
        fc.integer({ min: 1, max: 30 }),
        (value, indent, small) => {
          const text = JSON.stringify(value, null, indent) ?? 'null';
          expectSame(text, 3_000_000);
          expectSame(text, small);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('equals scanJson on deep nesting', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3000 }),
        fc.constantFrom('[', '{"k":', '{"error":['),
        fc.constantFrom('', ' ', '\n'),
        fc.integer({ min: 0, max: 4000 }),
        (depth, open, gap, maxNodes) => {
          const close = open === '[' ? ']' : open === '{"k":' ? '}' : ']}';
          const text = `${`${open}${gap}`.repeat(depth)}"failed é"${`${gap}${close}`.repeat(depth)}`;
          expectSame(text, maxNodes);
        },
      ),
      { numRuns: 60 },
    );
    const deep = `${'['.repeat(100_000)}1${']'.repeat(100_000)}`;
    expectSame(deep, 3_000_000);
    expectSame(deep, 50_000);
  });

  it('sizes keys and strings of 1 to 40 units beyond ASCII, pairs and lone surrogates', () => {
    // Ends of strings and the boundaries of the WebAssembly pass's blocks of 8 units.
    const unit = fc.constantFrom('a', ' ', 'é', '中', '😀', '\ud800', '\udbff', '\udc00', '\udfff');
    const raw = fc.array(unit, { minLength: 1, maxLength: 40 }).map((units) => units.join(''));
    fc.assert(
      fc.property(
        raw,
        raw,
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 0, max: 6 }),
        (key, value, pad, small) => {
          const text = `{"${'p'.repeat(pad)}":"${value}","${key}":["${value}",{"${value}":"${key}"}]}`;
          expectSame(text, 3_000_000);
          expectSame(text, small);
          expectSame(`"${value}"`, 1);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('reads empty containers and scalar roots', () => {
    for (const text of [
      '{}',
      '[]',
      ' { } ',
      '[\n]',
      '"é"',
      '"\ud83d"',
      '0',
      '-1.5e3',
      'true',
      ' null ',
    ]) {
      expectSame(text, 3_000_000);
      expectSame(text, 1);
      expectSame(text, 0);
    }
  });

  it('reads 100 000-deep nesting under keys beyond ASCII, truncated inside it', () => {
    const depth = 100_000;
    const text = `${'{"é中":['.repeat(depth)}"😀 failed"${']}'.repeat(depth)}`;
    for (const maxNodes of [3_000_000, 2 * depth, 150_001, 1234, 1]) expectSame(text, maxNodes);
  });

  it('agrees with scanJson on which texts are JSON', () => {
    const broken = documentText.chain((text) =>
      fc.oneof(
        fc.integer({ min: 0, max: text.length }).map((at) => text.slice(0, at)),
        fc
          .tuple(
            fc.integer({ min: 0, max: text.length }),
            fc.constantFrom(',', ':', '"', '}', ']', '\\', '\u0001', '01', 'tru', '\ud800'),
          )
          .map(([at, junk]) => text.slice(0, at) + junk + text.slice(at)),
      ),
    );
    fc.assert(
      fc.property(broken, (text) => {
        expect(compare(text, 1000, false)).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });

  it('finds the same error words by word search past a batch of candidates', () => {
    // Over 1024 candidates (every "err", "den", "tim"...) and over 50 000 error words, in keys,
    // values and escapes, after characters beyond ASCII and at the ends of strings.
    const pieces = ['Error', 'err', 'xerror', '\\nerror', 'éerror', '中failed', 'DENIED'];
    pieces.push('-panic', '_fatal', 'FATAL:');
    const items: string[] = [];
    for (let i = 0; i < 140_000; i++) items.push(`"${pieces[i % pieces.length]} ${i}"`);
    const text = `{"error":[${items.join(',')}],"timed out":"exit code 0","exit status 7":"ok"}`;
    const lent = withJsonTape(text, (tape, search) => inventoryFromTape(tape, 10, search));
    if (!lent.ok) throw new Error(`no tape: ${lent.reason}`);
    expect(difference(scanJson(text, 10)!, lent.value!)).toBeUndefined();
    expect(lent.value?.errorAt.length).toBe(50_000);
    const short = text.slice(0, 20_000).replace(/,"[^"]*$/, ']}');
    expect(compare(short, 1000, false)).toBeUndefined();
  });

  it('reads a lent tape to the same inventory', () => {
    const text = '{"a": ["Error é", {"b": "exit code 2"}], "c": null}';
    const lent = withJsonTape(text, (tape, search) => inventoryFromTape(tape, 3, search));
    expect(lent.ok).toBe(true);
    if (lent.ok) expect(difference(scanJson(text, 3)!, lent.value!)).toBeUndefined();
    // The cases the test above covers by chance, pinned.
    expect(lent.ok && lent.value?.truncated).toBe(true);
    expect(lent.ok && lent.value?.errorWord.length).toBe(2);
  });
});

/** `recordColumns` as one text, its entry columns cut to their count (the rest is spare room). */
function columnsText(columns: ReturnType<typeof recordColumns>): string {
  const { entries } = columns;
  return JSON.stringify(
    {
      ...columns,
      entrySig: columns.entrySig.subarray(0, entries),
      entryCount: columns.entryCount.subarray(0, entries),
    },
    (_key, field: unknown) => (ArrayBuffer.isView(field) ? Array.from(field as Int32Array) : field),
  );
}

/**
 * What `recordColumns` gathers over the borrowed inventory of `text` (by the lent tape's value
 * pass) and over the same inventory without its reader (in JavaScript).
 */
function valuesBothWays(text: string): { inWasm: string; inJs: string } | undefined {
  const read = withJsonTape(text, (tape, reader) => {
    const inventory = inventoryFromTape(tape, 3_000_000, reader, undefined, true);
    if (!inventory?.tapeReader) return undefined;
    const signatures = jsonSignatures(inventory);
    const inWasm = columnsText(recordColumns(inventory, signatures, undefined));
    const inJavaScript = { ...inventory, tapeReader: undefined };
    return { inWasm, inJs: columnsText(recordColumns(inJavaScript, signatures, undefined)) };
  });
  return read.ok ? read.value : undefined;
}

describe("the lent tape's value pass", () => {
  // Thousands of distinct values, so that its table of values grows (it starts small) while
  // long values that share their head and tail, repeated ones and hostile keys are told apart.
  const piece = fc.constantFrom('a', 'é', '\\u00e9', '\\"', '\ud83d', '\ude00', '😀', '/', ' ');
  const record = fc.record({
    text: fc.array(piece, { maxLength: 6 }).map((parts) => parts.join('')),
    number: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
    repeat: fc.integer({ min: 0, max: 3 }),
  });
  it('gathers what the pass in JavaScript gathers, past its first table (property)', () => {
    fc.assert(
      fc.property(
        fc.array(record, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 2500, max: 4000 }),
        (kinds, count) => {
          const lines: string[] = [];
          for (let i = 0; i < count; i++) {
            const { text, number, repeat } = kinds[i % kinds.length]!;
            const middle = repeat === 0 ? String(i) : String(i % repeat);
            lines.push(
              `{"id":${i},"__proto__":"${text}${i}",` +
                `"link":"https://example.com/a/long/path/to/${middle}/and/on/to/the/same/tail/${text}",` +
                `"n":${number},"big":${'9'.repeat(20 + (i % 3))},` +
                `"when":"2026-01-0${1 + (i % 9)}T00:${String(i % 60).padStart(2, '0')}:${i % 7}Z",` +
                `"x":${repeat === 1 ? '{"y":[1,"two",null]}' : 'true'}}`,
            );
          }
          const both = valuesBothWays(`{"items":[${lines.join(',')}]}`);
          expect(both).toBeDefined();
          expect(both!.inWasm === both!.inJs).toBe(true);
        },
      ),
      { numRuns: 12 },
    );
  });
});

describe.skipIf(!fixturesAvailable())('inventoryFromTape on the shared fixtures', () => {
  const fixtures = fixturesAvailable() ? listFixtures({ kind: 'json' }) : [];
  it.each(fixtures.map((fixture) => fixture.path))('%s, as is, minified and pretty', (path) => {
    let text = readFixture(path);
    if (text.startsWith('\uFEFF')) text = text.slice(1);
    const value = JSON.parse(text);
    const forms = [text, JSON.stringify(value), JSON.stringify(value, null, 2)];
    for (const form of forms) {
      expectSame(form, 3_000_000);
      expectSame(form, 1000);
      expectSame(form, 7);
    }
  });
});
