import { fixturesAvailable, listFixtures, readFixture } from '@compaction/fixtures';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type JsonTape,
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
} from '../json/json-tape.js';
import { buildJsonTapeInJs } from './build-json-tape-in-js.js';

const NON_ASCII = /[^\x00-\x7f]/;

const field = (tape: JsonTape, index: number, offset: number): number =>
  tape.records[index * TAPE_STRIDE + offset]!;

function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  // Plain assignment of `__proto__` would set the prototype; an existing key keeps its place.
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * Rebuilds the value a tape describes, reading the records in order (no recursion), and
 * returns it with the value of every record.
 */
function rebuild(tape: JsonTape): { value: unknown; values: unknown[] } {
  const { text } = tape;
  const values: unknown[] = [];
  // Open containers: their record index.
  const stack: number[] = [];
  for (let i = 0; i < tape.count; i++) {
    while (stack.length > 0 && field(tape, stack[stack.length - 1]!, TAPE_NEXT) <= i) stack.pop();
    const start = field(tape, i, TAPE_START);
    const end = field(tape, i, TAPE_END);
    const slice = text.slice(start, end);
    let value: unknown;
    switch (field(tape, i, TAPE_KIND)) {
      case TAPE_OBJECT:
        value = {};
        break;
      case TAPE_ARRAY:
        value = [];
        break;
      case TAPE_STRING:
        value = JSON.parse(slice);
        break;
      case TAPE_NUMBER:
        value = Number(slice);
        break;
      case TAPE_LITERAL:
        value = slice === 'true' ? true : slice === 'false' ? false : null;
        expect(['true', 'false', 'null']).toContain(slice);
        break;
      default:
        throw new Error(`record ${i}: unknown kind ${field(tape, i, TAPE_KIND)}`);
    }
    values.push(value);
    if (stack.length > 0) {
      const parent = stack[stack.length - 1]!;
      if (field(tape, parent, TAPE_KIND) === TAPE_ARRAY) {
        (values[parent] as unknown[]).push(value);
      } else {
        const key = JSON.parse(
          text.slice(field(tape, i, TAPE_KEY_START), field(tape, i, TAPE_KEY_END)),
        ) as string;
        setMember(values[parent] as Record<string, unknown>, key, value);
      }
    }
    const kind = field(tape, i, TAPE_KIND);
    if (kind === TAPE_OBJECT || kind === TAPE_ARRAY) stack.push(i);
  }
  return { value: values[0], values };
}

/**
 * Checks every field of every record against the text and the tree shape, without trusting
 * the builder: returns the first problem found, or undefined.
 */
function tapeProblem(tape: JsonTape, checkSubtrees: boolean): string | undefined {
  const { text, count, records } = tape;
  if (records.length !== count * TAPE_STRIDE) return 'records length is not count * stride';
  if (count < 1) return 'no root record';
  if (field(tape, 0, TAPE_NEXT) !== count) return 'root next is not count';
  if (field(tape, 0, TAPE_KEY_START) !== -1 || field(tape, 0, TAPE_KEY_END) !== -1) {
    return 'root has a key';
  }
  if (text.slice(0, field(tape, 0, TAPE_START)).trim() !== '') return 'text before the root';
  if (text.slice(field(tape, 0, TAPE_END)).trim() !== '') return 'text after the root';
  const { values } = rebuild(tape);
  for (let i = 0; i < count; i++) {
    const kind = field(tape, i, TAPE_KIND);
    const start = field(tape, i, TAPE_START);
    const end = field(tape, i, TAPE_END);
    const next = field(tape, i, TAPE_NEXT);
    const flags = field(tape, i, TAPE_FLAGS);
    const slice = text.slice(start, end);
    if (!(start >= 0 && start < end && end <= text.length)) return `record ${i}: bad span`;
    if (!(next > i && next <= count)) return `record ${i}: bad next`;
    // The subtree's records lie inside the value's span; the next record starts after it.
    for (let j = i + 1; j < next; j++) {
      if (field(tape, j, TAPE_START) < start || field(tape, j, TAPE_END) > end) {
        return `record ${j}: outside its ancestor ${i}`;
      }
      if (!checkSubtrees) break;
    }
    if (next < count && field(tape, next, TAPE_START) < end) return `record ${i}: next overlaps`;
    if (kind === TAPE_OBJECT || kind === TAPE_ARRAY) {
      const [open, close] = kind === TAPE_OBJECT ? ['{', '}'] : ['[', ']'];
      if (slice[0] !== open || slice[slice.length - 1] !== close) return `record ${i}: brackets`;
      let children = 0;
      for (let c = i + 1; c < next; c = field(tape, c, TAPE_NEXT)) {
        children++;
        const keyStart = field(tape, c, TAPE_KEY_START);
        const keyEnd = field(tape, c, TAPE_KEY_END);
        if (kind === TAPE_ARRAY && (keyStart !== -1 || keyEnd !== -1)) {
          return `record ${c}: an array item has a key`;
        }
        if (kind === TAPE_OBJECT) {
          const key = text.slice(keyStart, keyEnd);
          if (!(keyStart > start && keyEnd <= field(tape, c, TAPE_START))) {
            return `record ${c}: key span`;
          }
          if (typeof JSON.parse(key) !== 'string') return `record ${c}: key is not a string`;
          if (!/^\s*:\s*$/.test(text.slice(keyEnd, field(tape, c, TAPE_START)))) {
            return `record ${c}: no colon between key and value`;
          }
          if ((field(tape, c, TAPE_FLAGS) & TAPE_ESCAPED_KEY) !== 0) {
            if (!key.includes('\\')) return `record ${c}: escaped-key flag without a backslash`;
          } else if (key.includes('\\')) {
            return `record ${c}: backslash in a key without the flag`;
          }
          if (((field(tape, c, TAPE_FLAGS) & TAPE_NON_ASCII_KEY) !== 0) !== NON_ASCII.test(key)) {
            return `record ${c}: non-ASCII-key flag`;
          }
        }
      }
      if (children !== field(tape, i, TAPE_SIZE)) return `record ${i}: size`;
      if (checkSubtrees) expect(values[i]).toEqual(JSON.parse(slice));
    } else {
      if (next !== i + 1) return `record ${i}: a scalar with a subtree`;
      if (field(tape, i, TAPE_SIZE) !== 0) return `record ${i}: a scalar with a size`;
      if (!Object.is(values[i], JSON.parse(slice))) return `record ${i}: value`;
      if (kind === TAPE_NUMBER && !/^-?\d/.test(slice)) return `record ${i}: not a number`;
      if (kind === TAPE_STRING && slice[0] !== '"') return `record ${i}: not a string`;
    }
    const escapedValue = (flags & TAPE_ESCAPED_VALUE) !== 0;
    if (escapedValue !== (kind === TAPE_STRING && slice.includes('\\'))) {
      return `record ${i}: escaped-value flag`;
    }
    const nonAsciiValue = (flags & TAPE_NON_ASCII_VALUE) !== 0;
    if (nonAsciiValue !== (kind === TAPE_STRING && NON_ASCII.test(slice))) {
      return `record ${i}: non-ASCII-value flag`;
    }
    const known = TAPE_ESCAPED_VALUE | TAPE_ESCAPED_KEY | TAPE_NON_ASCII_VALUE | TAPE_NON_ASCII_KEY;
    if (flags & ~known) return `record ${i}: unknown flags`;
  }
  return undefined;
}

function expectTapeOf(text: string, checkSubtrees = true): JsonTape {
  const tape = buildJsonTapeInJs(text);
  if (tape === undefined) throw new Error(`no tape for ${JSON.stringify(text.slice(0, 80))}`);
  expect(tapeProblem(tape, checkSubtrees)).toBeUndefined();
  const expected = JSON.parse(tape.text);
  const { value } = rebuild(tape);
  expect(value).toEqual(expected);
  // toEqual ignores key order; the serialized forms do not.
  expect(JSON.stringify(value)).toBe(JSON.stringify(expected));
  return tape;
}

const loneSurrogate = fc
  .integer({ min: 0xd800, max: 0xdfff })
  .map((code) => String.fromCharCode(code));
const stringUnit = fc.oneof(
  fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }),
  fc.constantFrom('…', '"', '\\', '/', '\n', '\t', '\u0000', '\u007f', '\u2028', 'é', '😀'),
  loneSurrogate,
);

/** `JSON.stringify(text)` with some units written as `\uXXXX` or `\/` escapes instead. */
const escapedString = fc
  .tuple(fc.string({ maxLength: 10, unit: stringUnit }), fc.array(fc.boolean(), { maxLength: 10 }))
  .map(([text, escapes]) => {
    let json = '"';
    for (let i = 0; i < text.length; i++) {
      const unit = text[i]!;
      if (escapes[i]) {
        json += unit === '/' ? '\\/' : `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
      } else {
        // Raw, surrogates included, except what JSON requires escaped.
        const code = unit.charCodeAt(0);
        json +=
          code < 0x20 || unit === '"' || unit === '\\' ? JSON.stringify(unit).slice(1, -1) : unit;
      }
    }
    return `${json}"`;
  });

const keyText = fc.oneof(
  escapedString,
  fc
    .constantFrom(
      '__proto__',
      '0',
      '1',
      '9',
      '10',
      '01',
      '-1',
      '4294967294',
      '4294967295',
      'a',
      'b',
      '…',
      'constructor',
    )
    .map((key) => JSON.stringify(key)),
  fc.constantFrom('"\\u0061"', '"\\u005f_proto__"', '"1\\u0030"'),
);

const space = fc.constantFrom('', ' ', '\n  ', '\t', '\r\n');

/** JSON texts as written by hand: any whitespace, escapes, duplicate keys, any number token. */
const { value: jsonText } = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('true', 'false', 'null', '0', '-0', '1.0', '1e5', '-1.5E-3', '1E400'),
    fc.constantFrom('12345678901234567890', '0.30000000000000004', '5e-324'),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
    escapedString,
    fc
      .array(fc.tuple(space, tie('value'), space), { maxLength: 5 })
      .map((items) => `[${items.map((parts) => parts.join('')).join(',')}]`),
    fc
      .array(fc.tuple(space, keyText, space, space, tie('value'), space), { maxLength: 5 })
      .map(
        (members) =>
          `{${members.map(([a, key, b, c, value, d]) => `${a}${key}${b}:${c}${value}${d}`).join(',')}}`,
      ),
  ),
}));

describe('buildJsonTapeInJs', () => {
  it('returns undefined for text JSON.parse rejects', () => {
    for (const text of [
      '',
      ' ',
      '{',
      '[1,]',
      '{"a":1,}',
      'nul',
      '01',
      '"\\x"',
      '[1] 2',
      '\uFEFF',
    ]) {
      expect(buildJsonTapeInJs(text)).toBeUndefined();
    }
  });

  it('describes a small document exactly', () => {
    const tape = buildJsonTapeInJs(' {"a\\n": [1, "x\\"y"], "b":{}, "c" : true} ')!;
    expect(tape.count).toBe(6);
    expect(Array.from(tape.records)).toEqual(
      [
        [TAPE_OBJECT, 1, 41, 6, 3, -1, -1, 0],
        [TAPE_ARRAY, 9, 20, 4, 2, 2, 7, TAPE_ESCAPED_KEY],
        [TAPE_NUMBER, 10, 11, 3, 0, -1, -1, 0],
        [TAPE_STRING, 13, 19, 4, 0, -1, -1, TAPE_ESCAPED_VALUE],
        [TAPE_OBJECT, 26, 28, 5, 0, 22, 25, 0],
        [TAPE_LITERAL, 36, 40, 6, 0, 30, 33, 0],
      ].flat(),
    );
  });

  it('removes a leading byte-order mark from the text it indexes', () => {
    const tape = expectTapeOf('\uFEFF{"a":"\uFEFF"}');
    expect(tape.text).toBe('{"a":"\uFEFF"}');
    expect(field(tape, 0, TAPE_START)).toBe(0);
  });

  it('rebuilds exactly what JSON.parse builds from fast-check JSON (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: stringUnit }), fc.boolean(), (value, pretty) => {
        expectTapeOf(JSON.stringify(value, null, pretty ? 2 : undefined));
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.json(), (text) => {
        expectTapeOf(text);
      }),
      { numRuns: 300 },
    );
  });

  it('rebuilds hand-written JSON with duplicate keys, escapes and odd numbers (property)', () => {
    fc.assert(
      fc.property(jsonText, space, space, (text, before, after) => {
        expectTapeOf(`${before}${text}${after}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('rebuilds duplicate keys, __proto__, index-like keys and lone surrogates', () => {
    for (const text of [
      '{"a":1,"b":2,"a":3}',
      '{"a":1,"\\u0061":[2],"__proto__":{"x":1},"__proto__":null}',
      '{"b":1,"10":2,"9":3,"4294967295":4,"4294967294":5,"01":6,"10":7}',
      '["\\ud800","\ud800","\\ud83d\\ude00","😀","\\u2026x","\\/","\\"\\\\"]',
      '{"\\ud800":"\udc00","…":"…","":""}',
      '[[[],{}],[{"a":[{}]}]]',
      '-0',
      '"only"',
    ]) {
      expectTapeOf(text);
    }
  });

  it('indexes 100 000 levels of nesting without recursion', () => {
    const depth = 100_000;
    const text = `${'[{"k":'.repeat(depth)}1${'}]'.repeat(depth)}`;
    const tape = buildJsonTapeInJs(text)!;
    expect(tape.count).toBe(2 * depth + 1);
    let wrongNext = 0;
    for (let i = 0; i < tape.count; i++) if (field(tape, i, TAPE_NEXT) !== tape.count) wrongNext++;
    expect(wrongNext).toBe(0);
    expect(field(tape, 1, TAPE_KIND)).toBe(TAPE_OBJECT);
    expect(field(tape, 1, TAPE_SIZE)).toBe(1);
    const leaf = tape.count - 1;
    expect(field(tape, leaf, TAPE_KIND)).toBe(TAPE_NUMBER);
    expect(field(tape, leaf, TAPE_START)).toBe(6 * depth);
    expect(field(tape, 2, TAPE_KEY_START)).toBe(2);
    expect(field(tape, 2, TAPE_KEY_END)).toBe(5);
    expect(field(tape, 0, TAPE_END)).toBe(text.length);
  });
});

describe.skipIf(!fixturesAvailable())('buildJsonTapeInJs on the shared fixtures', () => {
  const json = fixturesAvailable() ? listFixtures({ kind: 'json' }) : [];
  it.each(json.map((fixture) => [fixture.path]))('%s', (path) => {
    expectTapeOf(readFixture(path), false);
  });
});
