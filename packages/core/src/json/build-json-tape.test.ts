import { fixturesAvailable, listFixtures, readFixture } from '@compaction/fixtures';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildJsonTapeInJs } from '../test/build-json-tape-in-js.js';
import { buildJsonTape, withJsonTape } from './build-json-tape.js';
import {
  type JsonTape,
  type JsonTapeWordSearch,
  TAPE_ARRAY,
  TAPE_END,
  TAPE_ESCAPED_KEY,
  TAPE_ESCAPED_VALUE,
  TAPE_FLAGS,
  TAPE_KEY_END,
  TAPE_KEY_START,
  TAPE_KIND,
  TAPE_LITERAL,
  TAPE_NEXT,
  TAPE_NON_ASCII_KEY,
  TAPE_NON_ASCII_VALUE,
  TAPE_NUMBER,
  TAPE_OBJECT,
  TAPE_SIZE,
  TAPE_START,
  TAPE_STRIDE,
  TAPE_STRING,
} from './json-tape.js';
import type { JsonTapeInventory } from './json-tape-reader.js';
import { jsonPair, rawStringLiteral } from './test-support/json-text-arbitraries.js';
import { textHash } from './text-hash.js';

const field = (tape: JsonTape, record: number, offset: number) =>
  tape.records[record * TAPE_STRIDE + offset]!;

// A plain check: `expect` per record makes the fixtures (400 000 records) take seconds.
function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`tape: ${what}`);
}

/**
 * Rebuilds the value of `record` from the tape alone, checking every field on the way: kinds,
 * offsets, child counts, skips, key offsets and escape flags. Objects get their members in
 * order, so a duplicate key keeps its last value at its first place, as with JSON.parse.
 */
function rebuild(tape: JsonTape, record: number): unknown {
  const { text } = tape;
  const slice = text.slice(field(tape, record, TAPE_START), field(tape, record, TAPE_END));
  const kind = field(tape, record, TAPE_KIND);
  const flags = field(tape, record, TAPE_FLAGS);
  if (kind === TAPE_STRING) {
    check(slice.includes('\\') === ((flags & TAPE_ESCAPED_VALUE) !== 0), `escape flag of ${slice}`);
    check(
      /[^\x00-\x7f]/.test(slice) === ((flags & TAPE_NON_ASCII_VALUE) !== 0),
      `non-ASCII flag of ${slice}`,
    );
    return JSON.parse(slice);
  }
  if (kind === TAPE_NUMBER) {
    check(/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(slice), `number ${slice}`);
    return Number(slice);
  }
  if (kind === TAPE_LITERAL) return JSON.parse(slice);
  check(kind === TAPE_OBJECT || kind === TAPE_ARRAY, `kind ${kind}`);
  const children: number[] = [];
  for (let child = record + 1; child < field(tape, record, TAPE_NEXT); ) {
    children.push(child);
    child = field(tape, child, TAPE_NEXT);
  }
  check(children.length === field(tape, record, TAPE_SIZE), `size of ${record}`);
  if (kind === TAPE_ARRAY) {
    check(slice.startsWith('[') && slice.endsWith(']'), `array ${record}`);
    return children.map((child) => {
      check(field(tape, child, TAPE_KEY_START) === -1, `item key of ${child}`);
      return rebuild(tape, child);
    });
  }
  check(slice.startsWith('{') && slice.endsWith('}'), `object ${record}`);
  const object: Record<string, unknown> = {};
  for (const child of children) {
    const key = text.slice(field(tape, child, TAPE_KEY_START), field(tape, child, TAPE_KEY_END));
    check(
      key.includes('\\') === ((field(tape, child, TAPE_FLAGS) & TAPE_ESCAPED_KEY) !== 0),
      `key escape flag of ${key}`,
    );
    check(
      /[^\x00-\x7f]/.test(key) === ((field(tape, child, TAPE_FLAGS) & TAPE_NON_ASCII_KEY) !== 0),
      `key non-ASCII flag of ${key}`,
    );
    Object.defineProperty(object, JSON.parse(key) as string, {
      value: rebuild(tape, child),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return object;
}

function expectTapeOf(text: string): void {
  const outcome = buildJsonTape(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    expect(outcome, JSON.stringify(text)).toEqual({ ok: false, reason: 'invalid' });
    return;
  }
  if (!outcome.ok) throw new Error(`no tape for valid JSON ${JSON.stringify(text)}`);
  const { tape } = outcome;
  expect(field(tape, 0, TAPE_NEXT)).toBe(tape.count);
  expect(field(tape, 0, TAPE_KEY_START)).toBe(-1);
  expect(rebuild(tape, 0)).toEqual(parsed);
}

// A valid text with one edit that usually breaks it: a cut, or a character removed, doubled or
// replaced by one that matters to a JSON parser.
const edited = fc
  .tuple(
    jsonPair.map((pair) => pair.pretty),
    fc.nat(),
    fc.constantFrom('cut', 'remove', 'double', 'replace'),
    fc.constantFrom(...',:[]{}"\\ 0-.eE+tfnu\u0001\u00a0x'),
  )
  .map(([text, at, edit, character]) => {
    const i = text.length === 0 ? 0 : at % text.length;
    if (edit === 'cut') return text.slice(0, i);
    if (edit === 'remove') return text.slice(0, i) + text.slice(i + 1);
    if (edit === 'double') return text.slice(0, i + 1) + text.slice(i);
    return text.slice(0, i) + character + text.slice(i + 1);
  });

describe('buildJsonTape', () => {
  it.each([
    '',
    ' ',
    '{}',
    '[]',
    '[1,]',
    '{"a":1,}',
    '{"a" 1}',
    '{"a":}',
    // A colon and a comma right after a key or a value are taken without a token of their own.
    '{"a"::1}',
    '{"a":,}',
    '[1,,2]',
    '[[],]',
    '{"a":{},}',
    '{"a":1,"b":[2,{}],"c":"d"}',
    '{,}',
    '[,]',
    '01',
    '-',
    '-0',
    '1.',
    '1.5e',
    '1e+5',
    '[.5]',
    '[+1]',
    'true',
    'tru',
    'null ',
    ' false',
    'falsey',
    '"abc',
    '"a\\x"',
    '"a\\u12g4"',
    '"a\\u12"',
    '"\u0001"',
    '"\ud800"',
    '"\\ud800"',
    '[[[]]',
    '{"a":1}}',
    '{"a":1]',
    '[1}',
    '\t\n\r [ 1 , 2 ] \n',
    '[1 2]',
    '{"a":1 "b":2}',
    '{1:2}',
    '[\u00a01]',
    '{"__proto__":{"a":1},"a":[],"a":2,"10":1,"9":2}',
    '\uFEFF{"bom":true}',
    '{"k\\"":"v\\\\"}',
  ])('accepts exactly what JSON.parse accepts, with the right tape: %j', (text) => {
    expectTapeOf(text);
  });

  it('flags the strings and keys whose text goes beyond ASCII, and only those', () => {
    // A unit beyond ASCII just past a closing quote shares the string's 16-unit vector; then one
    // at each lane of a long string or key, and \u escapes, which are ASCII text.
    const texts = ['["a","\u00e9"]', '{"k":"v","\u00e9":"\u4e2d"}', '["\\u00e9","x\\"\u00e9"]'];
    for (let at = 0; at < 40; at++) {
      texts.push(`["${'a'.repeat(at)}\u00e9${'b'.repeat(40 - at)}","c"]`);
      texts.push(`{"${'k'.repeat(at)}":"${'v'.repeat(at)}","\\ud83d\\ude00":"\u0800"}`);
      texts.push(`{"${'k'.repeat(at)}\ud83d\ude00":"${'v'.repeat(at)}"}`);
    }
    for (const text of texts) {
      expectTapeOf(text);
      const outcome = buildJsonTape(text);
      expect(outcome.ok && outcome.tape).toEqual(buildJsonTapeInJs(text));
    }
    const outcome = buildJsonTape('{"\u00e9":"a","b":"\u00e9","c":"\\u00e9"}');
    if (!outcome.ok) throw new Error('no tape');
    expect([1, 2, 3].map((record) => field(outcome.tape, record, TAPE_FLAGS))).toEqual([
      TAPE_NON_ASCII_KEY,
      TAPE_NON_ASCII_VALUE,
      TAPE_ESCAPED_VALUE,
    ]);
  });

  it('indexes any document like JSON.parse reads it (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          jsonPair.map((pair) => pair.pretty),
          jsonPair.map((pair) => pair.minified),
          fc.array(rawStringLiteral, { maxLength: 6 }).map((items) => `[${items.join(',')}]`),
        ),
        expectTapeOf,
      ),
      { numRuns: 3000 },
    );
  });

  it('writes the same records as the JavaScript reference builder (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          jsonPair.map((pair) => pair.pretty),
          fc.array(rawStringLiteral, { maxLength: 6 }).map((items) => `{"a":[${items.join(',')}]}`),
        ),
        (text) => {
          const outcome = buildJsonTape(text);
          expect(outcome.ok && outcome.tape).toEqual(buildJsonTapeInJs(text));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('rejects exactly the edited texts JSON.parse rejects (property)', () => {
    fc.assert(fc.property(edited, expectTapeOf), { numRuns: 5000 });
  });

  it('indexes 100 000-deep nesting', () => {
    const depth = 100_000;
    const text = `${'[{"a":'.repeat(depth)}1${'}]'.repeat(depth)}`;
    const outcome = buildJsonTape(text);
    if (!outcome.ok) throw new Error('no tape');
    expect(outcome.tape.count).toBe(2 * depth + 1);
    expect(field(outcome.tape, 0, TAPE_NEXT)).toBe(2 * depth + 1);
    expect(buildJsonTape(text.slice(0, -1))).toEqual({ ok: false, reason: 'invalid' });
  });

  it('builds a tape bigger than the retained instance, and still works afterwards', () => {
    const record = '{"id":12345678901234567890,"tags":["a","b"],"ok":true},';
    const text = `[${record.repeat(400_000)}null]`;
    const outcome = buildJsonTape(text);
    if (!outcome.ok) throw new Error('no tape');
    expect(field(outcome.tape, 0, TAPE_SIZE)).toBe(400_001);
    expect(outcome.tape.count).toBe(1 + 400_000 * 6 + 1);
    expectTapeOf('{"small":[1,2]}');
  });

  it('keeps the memory made for a big text while big texts follow, and drops it once idle', async () => {
    // About 6.6 million units, whose tape, inventory and signatures write more memory than an
    // instance is kept for while idle.
    const big = `[${'"abcdefgh",'.repeat(600_000)}0]`;
    const bufferOf = (text: string, passes = true) => {
      const read = withJsonTape(text, (tape, reader) => {
        if (passes && reader.inventory(Number.POSITIVE_INFINITY, true)) reader.signatures(true);
        return tape.records.buffer;
      });
      if (!read.ok) throw new Error('no tape');
      return read.value;
    };
    const first = bufferOf(big);
    expect(first.byteLength).toBeGreaterThan(64 * 2 ** 20);
    // The next big text, and a small one, are built in the same memory.
    expect(bufferOf(`${big} `) === first).toBe(true);
    expect(bufferOf('[1,2]') === first).toBe(true);
    expectTapeOf('{"small":[1,2]}');
    // A second after its last use it is dropped: the next text gets new memory.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const kept = bufferOf(`[${'"abcdefgh",'.repeat(300_000)}0]`, false);
    expect(kept === first).toBe(false);
    expect(kept.byteLength).toBeGreaterThan(64 * 2 ** 20);
    // The memory made for a big text that wrote less (its tape alone) is kept once idle: what
    // counts is the pages written, not the room made.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(bufferOf('[1,2]') === kept).toBe(true);
  });

  it('returns a tape that the next build does not overwrite', () => {
    const first = buildJsonTape('[1,2,3]');
    buildJsonTape('{"a":{"b":{"c":[true]}}}');
    expect(first.ok && Array.from(first.tape.records.slice(0, TAPE_STRIDE))).toEqual([
      TAPE_ARRAY,
      0,
      7,
      4,
      3,
      -1,
      -1,
      0,
    ]);
  });

  it('lends a tape to a reader without a copy, and reads nested tapes from fresh instances', () => {
    const outer = withJsonTape('{"a":[1,2]}', (tape) => {
      const before = Array.from(tape.records);
      const inner = withJsonTape('[true,false,null,"x"]', (nested) => nested.count);
      const again = buildJsonTape('{"b":{"c":{}}}');
      // The outer tape is intact after both nested builds.
      expect(Array.from(tape.records)).toEqual(before);
      return [tape.count, inner, again.ok && again.tape.count];
    });
    expect(outer).toEqual({ ok: true, value: [4, { ok: true, value: 5 }, 3] });
    expect(withJsonTape('[1,', () => 0)).toEqual({ ok: false, reason: 'invalid' });
    // The retained instance is free again after a reader that threw.
    expect(() =>
      withJsonTape('[1]', () => {
        throw new Error('reader failed');
      }),
    ).toThrow('reader failed');
    expectTapeOf('{"after":"a throw"}');
  });

  describe.skipIf(!fixturesAvailable())('on every JSON fixture', () => {
    it('indexes it like JSON.parse reads it', () => {
      for (const fixture of listFixtures({ kind: 'json' })) {
        expectTapeOf(readFixture(fixture.path));
      }
    });
  });
});

/** Every batch of `search.candidates(words, from)` (or `stringCandidates`) from `from` on, joined. */
function allCandidates(
  search: JsonTapeWordSearch,
  words: readonly string[],
  from = 0,
  inStrings = false,
): number[] {
  const next = (at: number) =>
    inStrings ? search.stringCandidates(words, at) : search.candidates(words, at);
  const found: number[] = [];
  for (let batch = next(from); batch.length > 0; ) {
    found.push(...batch);
    batch = next(batch[batch.length - 1]! + 1);
  }
  return found;
}

/** Whether unit `at` lies between the quotes of one of the tape's string values. */
function inStringValue(tape: JsonTape, at: number): boolean {
  const { records, count } = tape;
  for (let i = 0; i < count; i++) {
    const start = records[i * TAPE_STRIDE + TAPE_START]!;
    if (start >= at) break;
    if (records[i * TAPE_STRIDE + TAPE_KIND] !== TAPE_STRING) continue;
    if (at < records[i * TAPE_STRIDE + TAPE_END]! - 1) return true;
  }
  return false;
}

/**
 * Checks `stringCandidates` on `text`: ascending, each inside a string value, and every place a
 * word starts inside one among them.
 */
function expectStringCandidates(text: string, words: readonly string[], from: number): void {
  const lent = withJsonTape(text, (tape, search) => {
    const found = allCandidates(search, words, from, true);
    for (let i = 1; i < found.length; i++) expect(found[i]!).toBeGreaterThan(found[i - 1]!);
    expect(found.filter((at) => at < from || !inStringValue(tape, at))).toEqual([]);
    const missed = wordStarts(tape.text, words, Math.max(0, from)).filter(
      (at) => inStringValue(tape, at) && !found.includes(at),
    );
    expect(missed).toEqual([]);
  });
  expect(lent.ok).toBe(true);
}

/** Where one of `words` starts in `text`, matched in any ASCII case, from `from` on. */
function wordStarts(text: string, words: readonly string[], from = 0): number[] {
  const lower = text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
  const starts: number[] = [];
  for (let at = from; at < text.length; at++) {
    if (words.some((word) => lower.startsWith(word.toLowerCase(), at))) starts.push(at);
  }
  return starts;
}

/**
 * Checks `wordStarts` on `text`: every batch joined is exactly the places from `from` on where a
 * word starts (in any ASCII case; a word of `tokenStarts` not right after an ASCII letter or
 * digit), each with the bits of the words that start there.
 */
function expectWordStarts(
  text: string,
  words: readonly string[],
  from: number,
  tokenStarts = 0,
): void {
  const lent = withJsonTape(text, (tape, search) => {
    const found: Array<[number, number]> = [];
    let at = from;
    do {
      const batch = search.wordStarts!(words, at, tokenStarts);
      if (!batch) throw new Error('the words fit');
      for (let i = 0; i < batch.at.length; i++) found.push([batch.at[i]!, batch.words[i]!]);
      at = batch.next;
    } while (at >= 0);
    const inside = (at: number) => at > 0 && /[0-9A-Za-z]/.test(tape.text[at - 1]!);
    const expected = wordStarts(tape.text, words, Math.max(0, from))
      .map((at): [number, number] => {
        let bits = 0;
        words.forEach((word, k) => {
          if (tokenStarts & (1 << k) && inside(at)) return;
          if (wordStarts(tape.text.slice(at, at + word.length), [word]).includes(0)) bits |= 1 << k;
        });
        return [at, bits];
      })
      .filter(([, bits]) => bits !== 0);
    expect(found).toEqual(expected);
  });
  expect(lent.ok).toBe(true);
}

function expectCandidates(text: string, words: readonly string[], from: number): void {
  const lent = withJsonTape(text, (tape, search) => {
    const found = allCandidates(search, words, from);
    for (let i = 1; i < found.length; i++) expect(found[i]!).toBeGreaterThan(found[i - 1]!);
    if (found.length > 0) {
      expect(found[0]!).toBeGreaterThanOrEqual(Math.max(0, from));
      expect(found[found.length - 1]!).toBeLessThan(tape.text.length);
    }
    const missed = wordStarts(tape.text, words, Math.max(0, from)).filter(
      (at) => !found.includes(at),
    );
    expect(missed).toEqual([]);
    return found.length;
  });
  expect(lent.ok).toBe(true);
}

describe('withJsonTape word search', () => {
  const words = ['error', 'Failed', 'exit code', 'oom', 'x', 'ab', 'q"', 'e\\', '{Z'];
  const piece = fc.constantFrom(
    ...words,
    'ERROR',
    'eRr',
    'fail',
    'EXIT CODE',
    'é',
    '\u0165',
    '\u4e2d',
    '\ud83d\ude00',
    '\u0145x',
    // Narrowed to a byte, a unit reads as 0xFF up to 0x7FFF and as 0 from 0x8000 on.
    '\u7fffr',
    '\u8000e',
    '\uffffx',
    ' ',
    'z',
    '0',
  );

  it('finds every place where a word starts, in any case, ascending, in batches (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(piece, { maxLength: 12 }), { maxLength: 8 }),
        fc.integer({ min: -2, max: 60 }),
        (strings, from) => {
          const text = JSON.stringify(strings.map((parts) => parts.join('')));
          expectCandidates(text, words, from);
          expectCandidates(text, ['ERR'], from);
          expectCandidates(text, [], from);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('checks each place in full and tells which words start there (property)', () => {
    const lower = words.map((word) => word.toLowerCase());
    fc.assert(
      fc.property(
        fc.array(fc.array(piece, { maxLength: 12 }), { maxLength: 8 }),
        fc.integer({ min: -2, max: 60 }),
        (strings, from) => {
          const text = JSON.stringify(strings.map((parts) => parts.join('')));
          expectWordStarts(text, lower, from);
          expectWordStarts(text, lower, from, 0b10111);
          expectWordStarts(text, ['err', 'error', '"', 'x'], from, 0b1001);
          expectWordStarts(text, [], from);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('carries word starts past batches with none, and gives none for words that do not fit', () => {
    // Three batches of the fingerprint's places ("aaaa…" for "aab"), one word start at the end.
    expectWordStarts(`"${'a'.repeat(3000)}b"`, ['aab'], 0);
    expectWordStarts(`"${'aB'.repeat(1500)}"`, ['ab', 'ba', 'abab'], 1);
    const lent = withJsonTape('"abc"', (_tape, search) => {
      expect(() => search.wordStarts!(['Abc'], 0)).toThrow(RangeError);
      expect(() => search.wordStarts!([''], 0)).toThrow(RangeError);
      expect(
        search.wordStarts!(
          Array.from({ length: 33 }, (_, k) => `w${k}`),
          0,
        ),
      ).toBeUndefined();
      expect(search.wordStarts!(['x'.repeat(2049)], 0)).toBeUndefined();
      const inToken = search.wordStarts!(['bc', 'c'], 0, 0b11)!;
      expect([...inToken.at]).toEqual([]);
      const { at, words, next } = search.wordStarts!(['c"', 'bc'], 0)!;
      return { at: [...at], words: [...words], next };
    });
    expect(lent).toEqual({ ok: true, value: { at: [2, 3], words: [2, 1], next: -1 } });
  });

  it('searches only string values, between their quotes, when asked (property)', () => {
    const text = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.constantFrom(true, false, null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(text, tie('value'), { maxKeys: 4 }),
      ),
    }));
    fc.assert(
      fc.property(
        value,
        fc.constantFrom(undefined, 1, '\t'),
        fc.integer({ min: -2, max: 80 }),
        (document, indent, from) => {
          const json = JSON.stringify(document, null, indent);
          expectStringCandidates(json, words, from);
          expectStringCandidates(json, ['ERR', '"', 'true'], from);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('carries a string value search past full batches and across strings', () => {
    const strings = JSON.stringify({ aa: 'a'.repeat(1500), k: ['aa', 1, 'xa', { aa: 'aaa' }] });
    expectStringCandidates(strings, ['aa'], 0);
    expectStringCandidates(strings, ['aa'], 1200);
    expectStringCandidates(strings, ['aa'], strings.indexOf('xa'));
    const lent = withJsonTape('{"error":"no error","n":[true,"x error"]}', (_tape, search) => [
      [...search.stringCandidates(['error'], 0)],
      [...search.stringCandidates(['error'], 14)],
      [...search.stringCandidates(['"', 'true'], 0)],
    ]);
    expect(lent).toEqual({ ok: true, value: [[13, 33], [33], []] });
  });

  it('carries on past a full batch and up to the last unit', () => {
    // 3000 overlapping places, three batches; the last one starts at the closing quote.
    expectCandidates(`"${'a'.repeat(3000)}"`, ['aa', '"'], 0);
    expectCandidates(`"${'aB'.repeat(1500)}"`, ['ab', 'ba'], 1);
    const lent = withJsonTape('"abc"', (_tape, search) => [
      [...search.candidates(['c"'], 0)],
      [...search.candidates(['"'], 5)],
      [...search.candidates(['"'], Number.NaN)],
    ]);
    expect(lent).toEqual({ ok: true, value: [[3], [], []] });
  });

  it('gives a nested reader its own search, and the outer one still searches its own text', () => {
    const outer = withJsonTape('["error"]', (_tape, search) => {
      const inner = withJsonTape('[0,"xx error"]', (_innerTape, innerSearch) => {
        expect(innerSearch).not.toBe(search);
        return [...innerSearch.candidates(['error'], 0)];
      });
      return { inner, outer: [...search.candidates(['error'], 0)] };
    });
    expect(outer).toEqual({ ok: true, value: { inner: { ok: true, value: [7] }, outer: [2] } });
  });

  it('refuses words beyond printable ASCII, and a search after the reader returned', () => {
    const lent = withJsonTape('[1]', (_tape, search) => {
      expect(() => search.candidates([''], 0)).toThrow(RangeError);
      expect(() => search.candidates(['\u00e9t\u00e9'], 0)).toThrow(RangeError);
      expect(() => search.candidates(['a\nb'], 0)).toThrow(RangeError);
      return search;
    });
    if (!lent.ok) throw new Error('no tape');
    expect(() => lent.value.candidates(['x'], 0)).toThrow(/only while its reader ran/);
  });
});

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

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

/**
 * The inventory of `text`'s first `maxValues` records from the lent reader, checked against
 * the tape and against what the columns mean: the tape's offsets and kinds, children walked
 * through `next` with their parent and position, every size from `Buffer.byteLength` of the
 * text (a scalar's and a key's) or from its children's (a container's: brackets, units, commas).
 */
function expectInventoryOf(text: string, maxValues: number): JsonTapeInventory {
  const copied = buildJsonTape(text);
  if (!copied.ok) throw new Error('no tape');
  const { tape } = copied;
  const lent = withJsonTape(text, (lentTape, reader) => {
    const inventory = reader.inventory(maxValues);
    // Memory that grew for the pass moved; the lent tape's records follow it.
    check(
      lentTape.records.every((value, i) => value === tape.records[i]),
      'records after the pass',
    );
    // Borrowed, the same columns are views of the lent memory instead of copies.
    const borrowed = reader.inventory(maxValues, true);
    if (inventory && borrowed) {
      for (const name of COLUMNS) {
        const copy = inventory[name];
        const view = borrowed[name];
        check(
          view.buffer === lentTape.records.buffer && view.length === copy.length,
          `borrowed ${name} is a view of the lent memory`,
        );
        check(
          view.every((value, i) => value === copy[i]),
          `borrowed ${name} equals the copy`,
        );
      }
      check(borrowed.rootBytes === inventory.rootBytes, 'borrowed root bytes');
      check(borrowed.extraBytes === inventory.extraBytes, 'borrowed extra bytes');
    } else check(inventory === borrowed, 'borrowed only when copied');
    return inventory;
  });
  if (!lent.ok || lent.value === undefined) throw new Error('no inventory');
  const inventory = lent.value;
  const count = Math.min(tape.count, Math.max(0, Math.ceil(maxValues)));
  expect(inventory.count).toBe(count);
  for (const column of [inventory.kind, inventory.parent, inventory.valueBytes]) {
    expect(column.length).toBe(count);
  }
  expect(inventory.extraBytes).toBe(utf8(text) - text.length);
  const children = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    const kind = field(tape, i, TAPE_KIND);
    check(inventory.kind[i] === (kind === TAPE_LITERAL ? TAPE_NUMBER : kind), `kind ${i}`);
    check(inventory.next[i] === Math.min(field(tape, i, TAPE_NEXT), count), `next ${i}`);
    check(inventory.start[i] === field(tape, i, TAPE_START), `start ${i}`);
    check(inventory.end[i] === field(tape, i, TAPE_END), `end ${i}`);
    const keyStart = field(tape, i, TAPE_KEY_START);
    const keyEnd = field(tape, i, TAPE_KEY_END);
    check(inventory.keyStart[i] === keyStart && inventory.keyEnd[i] === keyEnd, `key ${i}`);
    const keyBytes = keyStart < 0 ? 0 : utf8(text.slice(keyStart, keyEnd));
    check(inventory.keyBytes[i] === keyBytes, `key bytes ${i}`);
    const keyHash = keyStart < 0 ? 0 : textHash(text, keyStart + 1, keyEnd - 1);
    check(inventory.keyHash[i] === keyHash, `key hash ${i}`);
    const valueBytes = inventory.valueBytes[i]!;
    const unit = keyBytes > 0 ? keyBytes + 1 + valueBytes : valueBytes;
    check(inventory.unitBytes[i] === unit, `unit bytes ${i}`);
    const parent = inventory.parent[i]!;
    check(parent < i && (parent >= 0 || i === 0), `parent ${i}`);
    const position = children.get(parent) ?? 0;
    check(inventory.childIndex[i] === position, `child index ${i}`);
    children.set(parent, position + 1);
    if (kind !== TAPE_OBJECT && kind !== TAPE_ARRAY) {
      const from = field(tape, i, TAPE_START);
      const to = field(tape, i, TAPE_END);
      check(valueBytes === utf8(text.slice(from, to)), `value bytes ${i}`);
      // A string's text between its quotes, another scalar's whole token.
      const valueHash =
        kind === TAPE_STRING ? textHash(text, from + 1, to - 1) : textHash(text, from, to);
      check(inventory.valueHash[i] === valueHash, `value hash ${i}`);
      continue;
    }
    check(inventory.valueHash[i] === 0, `container hash ${i}`);
    const next = field(tape, i, TAPE_NEXT);
    // Only a container whose subtree is all described can be summed here.
    if (next > count) continue;
    let sum = 0;
    let items = 0;
    for (let c = i + 1; c < next; c = field(tape, c, TAPE_NEXT)) {
      check(inventory.parent[c] === i, `parent of ${c}`);
      sum += inventory.unitBytes[c]!;
      items++;
    }
    check(valueBytes === 2 + sum + Math.max(items - 1, 0), `container bytes ${i}`);
    if (i === 0) check(inventory.rootBytes === valueBytes, 'root bytes');
  }
  return inventory;
}

describe('withJsonTape inventory', () => {
  // Units around the SIMD pass's blocks of 8: ASCII, 2- and 3-byte characters, pairs, and lone
  // surrogates of either half (3 bytes each, as Buffer writes U+FFFD).
  const unit = fc.constantFrom(
    'a',
    ' ',
    'é',
    '\u0080',
    '\u07ff',
    '\u0800',
    '中',
    '\uffff',
    '😀',
    '\u{10ffff}',
    '\ud800',
    '\udbff',
    '\udc00',
    '\udfff',
  );
  const raw = fc.array(unit, { minLength: 1, maxLength: 40 }).map((units) => units.join(''));

  it('sizes strings and keys in UTF-8 as Buffer.byteLength does (property)', () => {
    fc.assert(
      fc.property(
        raw,
        raw,
        fc.integer({ min: 0, max: 17 }),
        fc.integer({ min: 0, max: 3 }),
        (key, value, pad, maxValues) => {
          // The padding key moves the strings against 16-byte blocks of memory.
          const text = `{"${'p'.repeat(pad)}":1,"${key}":"${value}","${value}":["${key}"]}`;
          const inventory = expectInventoryOf(text, 9);
          expect(inventory.rootBytes).toBe(utf8(text));
          expect(inventory.keyBytes[2]).toBe(utf8(`"${key}"`));
          expect(inventory.valueBytes[2]).toBe(utf8(`"${value}"`));
          expect(expectInventoryOf(`"${value}"`, 1).valueBytes[0]).toBe(utf8(`"${value}"`));
          expect(expectInventoryOf(text, maxValues).rootBytes).toBe(utf8(text));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('hashes keys and values as textHash does, short and past its 48 units (property)', () => {
    const text = fc.array(unit, { minLength: 0, maxLength: 70 }).map((units) => units.join(''));
    fc.assert(
      fc.property(text, text, fc.integer({ min: 0, max: 9 }), (key, value, pad) => {
        expectInventoryOf(`{"${'p'.repeat(pad)}":-0.5e7,"${key}":"${value}","${value}":[true]}`, 9);
      }),
      { numRuns: 1000 },
    );
  });

  it('sizes the UTF-8 of long strings past many blocks', () => {
    for (const piece of ['😀', '\ud800', '\udc00\ud800', 'é中a', '\ud83d\ude00\ud83d']) {
      for (const repeat of [1000, 100_001]) {
        const text = `["${piece.repeat(repeat)}"]`;
        expect(expectInventoryOf(text, 2).rootBytes).toBe(utf8(text));
      }
    }
  });

  it('describes any document, whole and truncated, as its tape and its sizes say (property)', () => {
    fc.assert(
      fc.property(jsonPair, rawStringLiteral, fc.integer({ min: 0, max: 12 }), (pair, s, small) => {
        for (const text of [pair.minified, pair.pretty, `{${s}:[${s},${pair.pretty}]}`]) {
          expectInventoryOf(text, 3_000_000);
          expectInventoryOf(text, small);
        }
        expect(expectInventoryOf(pair.pretty, small).rootBytes).toBe(utf8(pair.minified));
      }),
      { numRuns: 500 },
    );
  });

  it('describes empty containers and scalar roots', () => {
    for (const [text, kind, bytes] of [
      ['{}', TAPE_OBJECT, 2],
      [' [ ] ', TAPE_ARRAY, 2],
      ['"é"', TAPE_STRING, 4],
      ['"\ud800"', TAPE_STRING, 5],
      ['-1.5e3', TAPE_NUMBER, 6],
      ['\n true ', TAPE_NUMBER, 4],
      ['null', TAPE_NUMBER, 4],
    ] as const) {
      const inventory = expectInventoryOf(text, 10);
      expect([inventory.count, inventory.kind[0], inventory.parent[0], inventory.next[0]]).toEqual([
        1,
        kind,
        -1,
        1,
      ]);
      expect([inventory.valueBytes[0], inventory.unitBytes[0], inventory.rootBytes]).toEqual([
        bytes,
        bytes,
        bytes,
      ]);
      expect(expectInventoryOf(text, 0).rootBytes).toBe(bytes);
    }
  });

  it('describes 100 000-deep nesting, whole and truncated inside it', () => {
    const depth = 100_000;
    const text = `${'[{"é":'.repeat(depth)}"😀"${'}]'.repeat(depth)}`;
    for (const maxValues of [3_000_000, 2 * depth + 1, 150_001, 1234, 1]) {
      const inventory = expectInventoryOf(text, maxValues);
      expect(inventory.rootBytes).toBe(utf8(text));
      expect(inventory.parent[inventory.count - 1]).toBe(inventory.count - 2);
    }
  });

  it('gives columns that outlive the lending, and refuses a pass after it', () => {
    const lent = withJsonTape('{"a":[1,"é"]}', (_tape, reader) => ({
      inventory: reader.inventory(10),
      reader,
    }));
    if (!lent.ok || !lent.value.inventory) throw new Error('no inventory');
    const { inventory, reader } = lent.value;
    const before = Array.from(inventory.valueBytes);
    withJsonTape('[[[[[[[["x"]]]]]]]]', (_tape, next) => next.inventory(10));
    expect(Array.from(inventory.valueBytes)).toEqual(before);
    expect(before).toEqual([14, 8, 1, 4]);
    expect(() => reader.inventory(1)).toThrow(/only while its reader ran/);
    expect(() => reader.signatures()).toThrow(/only while its reader ran/);
  });
});

describe('withJsonTape signatures', () => {
  it('has none before an inventory, and tells fields of records apart after one', () => {
    const text = '[{"a":1,"b":[2,3]},{"a":4,"b":[5,6]},{"b":[],"c":"x"}]';
    const lent = withJsonTape(text, (_tape, reader) => {
      const before = reader.signatures();
      reader.inventory(100);
      return { before, after: reader.signatures() };
    });
    if (!lent.ok) throw new Error('no tape');
    expect(lent.value.before).toBeUndefined();
    const found = lent.value.after;
    if (!found) throw new Error('no signatures');
    // root, items, a, b, b's positions 0 and 1, c.
    expect(found.count).toBe(7);
    expect(Array.from(found.of)).toEqual([0, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 3, 6]);
    expect(Array.from(found.step)).toEqual([0, 2, 1, 1, 3, 3, 1]);
    expect(Array.from(found.parent)).toEqual([-1, 0, 1, 1, 3, 3, 1]);
    expect(Array.from(found.depth)).toEqual([0, 1, 2, 2, 3, 3, 2]);
    expect(Array.from(found.nodes)).toEqual([1, 3, 2, 3, 2, 2, 1]);
    expect(Array.from(found.leaves)).toEqual([0, 0, 2, 1, 2, 2, 1]);
    expect(Array.from(found.objects)).toEqual([0, 3, 0, 0, 0, 0, 0]);
    // Each value's next of its signature, -1 at the last; the first and last of each.
    expect(Array.from(found.nextSame)).toEqual([
      -1, 6, 7, 8, 9, 10, 11, -1, 12, -1, -1, -1, -1, -1,
    ]);
    expect(Array.from(found.first)).toEqual([0, 1, 2, 3, 4, 5, 13]);
    expect(Array.from(found.last)).toEqual([0, 11, 7, 12, 9, 10, 13]);
    // `"a":1` is 5 bytes, `"b":[2,3]` 9, `"b":[]` 6; items 17, 17 and 16.
    expect(Array.from(found.bytes)).toEqual([0, 50, 10, 24, 2, 2, 7]);
    expect(Array.from(found.maxBytes)).toEqual([0, 17, 5, 9, 1, 1, 7]);
  });

  it('counts each signature’s values inside records, and has none before its signatures', () => {
    // Records: the items (signature 1). Values 2, 5, 8 are `n`; 3, 6, 9 are `s`.
    const text = '[{"n":1,"s":"ab"},{"n":2.5,"s":"ab"},{"n":-3,"s":"abc"}]';
    const literals = [1, 2, 3] as const;
    const options = { prefix: 48, samples: 16, digits: 15, literals };
    const lent = withJsonTape(text, (_tape, reader) => {
      reader.inventory(100);
      const before = reader.valueStatistics(new Uint8Array(4), options);
      const shape = reader.signatures();
      const records = Uint8Array.of(0, 1, 0, 0);
      return { before, shape, found: reader.valueStatistics(records, options) };
    });
    if (!lent.ok || !lent.value.found || !lent.value.shape) throw new Error('no statistics');
    const { before, shape, found } = lent.value;
    expect(before).toBeUndefined();
    expect(Array.from(shape.of)).toEqual([0, 1, 2, 3, 1, 2, 3, 1, 2, 3]);
    expect(Array.from(found.recordAbove)).toEqual([-1, -1, 1, 1, -1, 4, 4, -1, 7, 7]);
    expect(Array.from(found.presence)).toEqual([0, 0, 3, 3]);
    expect(Array.from(found.values)).toEqual([0, 0, 3, 3]);
    // Entries: 1, "ab", 2.5, -3, "abc" (the second "ab" is the first's).
    expect(found.entries).toBe(5);
    expect(Array.from(found.entryOf)).toEqual([-1, -1, 0, 1, -1, 2, 1, -1, 3, 4]);
    expect(Array.from(found.entrySignature)).toEqual([2, 3, 2, 2, 3]);
    expect(Array.from(found.entryCount)).toEqual([1, 2, 1, 1, 1]);
    expect(Array.from(found.entryFirst)).toEqual([2, 3, 5, 8, 9]);
    expect(Array.from(found.distinct)).toEqual([0, 0, 3, 2]);
    expect(Array.from(found.valueUnits)).toEqual([0, 0, 6, 7]);
    // Numbers share no prefix here; "ab" again is all repeated (one unit counted), and "abc"
    // adds one past "ab".
    expect(Array.from(found.novelUnits)).toEqual([0, 0, 6, 4]);
    expect(Array.from(found.sampledUnits)).toEqual([0, 0, 6, 7]);
    // 2.5 has a fraction: the numbers of `n` are left to the caller.
    expect(Array.from(found.unreadNumbers)).toEqual([0, 0, 1, 0]);
    expect(Array.from(found.numbers)).toEqual([0, 0, 2, 0]);
    expect(Array.from(found.numberSum)).toEqual([0, 0, -2, 0]);
    expect(Array.from(found.numberSquares)).toEqual([0, 0, 10, 0]);
  });

  it('makes room again for a signature per value, and gives a copy unless borrowed', () => {
    const wide = JSON.stringify(
      Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i])),
    );
    const lent = withJsonTape(wide, (_tape, reader) => {
      reader.inventory(10_000);
      const copy = reader.signatures();
      const view = reader.signatures(true);
      return { copy, shared: view?.of.buffer === copy?.of.buffer, same: view?.of[4999] };
    });
    if (!lent.ok || !lent.value.copy) throw new Error('no signatures');
    expect(lent.value.copy.count).toBe(5001);
    expect(lent.value.copy.of[5000]).toBe(5000);
    expect(lent.value.shared).toBe(false);
    expect(lent.value.same).toBe(4999);
  });
});
