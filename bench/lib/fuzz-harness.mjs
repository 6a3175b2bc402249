// The fuzz harness: seeded generators of hostile and mutated inputs, one entry per public pass
// (the trimmer on JSON and on text, the digest, the excerpt, the lossless parse, the artifact
// search), each with the invariants every output must hold (budget, valid JSON body, a note
// exactly when content was lost, exact numbers, determinism, no throw but documented errors).
// `pnpm test` runs a bounded seeded pass (bench/fuzz.test.ts); `pnpm fuzz` runs the long one
// (bench/fuzz.mjs), which also flags any case whose cost exceeds a fixed multiple of a linear
// pass over the same input (JSON.parse, or a scan of the text) measured in the same process.

import {
  compileSearchPattern,
  describeText,
  excerpt,
  minimumExcerptBudget,
  parseExcerptMarker,
} from '@compaction/artifacts';
import {
  BudgetTooSmallError,
  parseJsonLossless,
  stringifyJsonLossless,
  stripDisclosureNotes,
  trailingDisclosureNotes,
} from '@compaction/core';
import { createDigester } from '@compaction/digest';
import { seededRandom } from '@compaction/test-runtime';
import { createStructuralTrimmer } from '@compaction/trimmer';
import { JSON_FAMILIES, TEXT_FAMILIES } from './hostile-inputs.mjs';

/** A seeded PRNG (mulberry32): `next()` in [0, 1), `int(n)` in [0, n), `pick(list)`. */
export function createRandom(seed) {
  const next = seededRandom(seed);
  const int = (n) => Math.floor(next() * n);
  return { next, int, pick: (list) => list[int(list.length)], chance: (p) => next() < p };
}

const PIECES = [
  'a',
  'word ',
  ' ',
  '\n',
  '\r\n',
  '\t',
  '.',
  '...',
  '!?',
  '. ',
  'e\u0301',
  '\u0301',
  '👍🏽',
  '👨‍👩‍👧‍👦',
  '🇫🇷',
  '🇦',
  'क्ष',
  '中文',
  '\ud800',
  '"',
  '\\',
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  'ERROR: build failed',
  'Traceback (most recent call last):',
  '12345678901234567890',
  '…',
];
const RAW_NUMBERS = [
  '12345678901234567890',
  '-9223372036854775809',
  '1.0',
  '1e400',
  '-0',
  '2.50',
  '0.1e-7',
  '3',
];
const KEYS = [
  'id',
  'name',
  'status',
  'error',
  'items',
  'a',
  '0',
  '1',
  '__proto__',
  '…',
  'é',
  'key with space',
];

function randomString(random, maxPieces) {
  let out = '';
  const pieces = random.int(maxPieces);
  for (let i = 0; i < pieces; i++) out += random.pick(PIECES);
  return out;
}

// Values left to generate in the current document, so nesting cannot multiply its size.
let valuesLeft = 0;

function randomJson(random, depth) {
  valuesLeft--;
  const roll = random.int(depth > 0 && valuesLeft > 0 ? 8 : 5);
  if (roll === 0) return random.pick(RAW_NUMBERS);
  if (roll === 1) return JSON.stringify(randomString(random, 12));
  if (roll === 2) return random.pick(['true', 'false', 'null']);
  if (roll === 3) return String(random.int(1e6) - 5e5);
  if (roll === 4) return JSON.stringify(randomString(random, 3));
  const count = random.int(random.chance(0.1) ? 300 : 8);
  const items = [];
  for (let i = 0; i < count && valuesLeft > 0; i++) items.push(randomJson(random, depth - 1));
  if (roll === 5) return `[${items.join(',')}]`;
  return `{${items.map((item) => `${JSON.stringify(random.pick(KEYS) + (random.chance(0.5) ? random.int(100) : ''))}:${item}`).join(',')}}`;
}

function mutate(random, text) {
  if (text.length === 0) return random.pick(PIECES);
  const at = random.int(text.length);
  switch (random.int(5)) {
    case 0:
      return text.slice(0, at);
    case 1:
      return text.slice(0, at) + random.pick(PIECES) + text.slice(at);
    case 2: {
      const end = Math.min(text.length, at + random.int(200));
      return text.slice(0, end) + text.slice(at, end).repeat(1 + random.int(20)) + text.slice(end);
    }
    case 3:
      return text.slice(0, at) + text.slice(at + 1 + random.int(10));
    default:
      return `${text}${text.slice(0, random.int(text.length))}`;
  }
}

/** A JSON text: generated, sometimes pretty, sometimes hostile, sometimes mutated (invalid). */
function jsonInput(random, large) {
  if (large || random.chance(0.05)) {
    const family = random.pick(Object.keys(JSON_FAMILIES));
    return JSON_FAMILIES[family](large ? 16_384 + random.int(48_000) : 64 + random.int(4000));
  }
  valuesLeft = 1 + random.int(random.chance(0.1) ? 2000 : 200);
  let text = randomJson(random, 1 + random.int(6));
  if (random.chance(0.3)) {
    try {
      text = JSON.stringify(JSON.parse(text), null, 2);
    } catch {}
  }
  return random.chance(0.15) ? mutate(random, text) : text;
}

/**
 * JSON lines: objects one a line (records sharing keys, or any generated object), joined by
 * `\n` or `\r\n`, sometimes with blank lines, cut at both ends (read from an offset, cut at a
 * size), or mutated.
 */
function linesInput(random, large) {
  const count = large ? 2000 + random.int(4000) : 1 + random.int(random.chance(0.2) ? 400 : 40);
  const lines = [];
  for (let i = 0; i < count; i++) {
    if (random.chance(0.8)) {
      const record = {
        id: `r-${random.int(count * 2)}`,
        state: random.pick(['ok', 'ok', 'failed']),
      };
      if (random.chance(0.5)) record.ms = random.int(1000);
      if (random.chance(0.3)) record.note = randomString(random, 40);
      lines.push(JSON.stringify(record));
    } else {
      valuesLeft = 1 + random.int(20);
      lines.push(JSON.stringify({ value: JSON.parse(randomJson(random, 3)) }));
    }
  }
  let text = lines.join(random.pick(['\n', '\r\n', '\n\n']));
  if (random.chance(0.3)) text = text.slice(random.int(40), text.length - random.int(40));
  return random.chance(0.15) ? mutate(random, text) : text;
}

/** A text: lines of pieces, sometimes a hostile family, sometimes mutated. */
function textInput(random, large) {
  if (large || random.chance(0.1)) {
    const family = random.pick(Object.keys(TEXT_FAMILIES));
    return TEXT_FAMILIES[family](large ? 16_384 + random.int(48_000) : 16 + random.int(4000));
  }
  const lines = [];
  const count = random.int(random.chance(0.1) ? 400 : 40);
  for (let i = 0; i < count; i++) lines.push(randomString(random, 20));
  const text = lines.join(random.pick(['\n', '\r\n', ' ', '. ', '']));
  return random.chance(0.2) ? mutate(random, text) : text;
}

const NUMBER = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
function numberTokens(json) {
  const tokens = [];
  for (const match of json.matchAll(NUMBER))
    if (match[0].charCodeAt(0) !== 34) tokens.push(match[0]);
  return tokens;
}

/** The same value as JSON.parse reads both, or true when nesting is too deep to compare. */
function sameValue(a, b) {
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
  } catch (error) {
    if (error instanceof RangeError) return true;
    throw error;
  }
}

/** A linear pass over a text: reading it as a JSON string. */
function scan(text) {
  return JSON.parse(JSON.stringify(text)).length;
}

function isJson(text) {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A violation: throws with a message naming the invariant. */
function check(condition, message) {
  if (!condition) throw new Error(message);
}

function checkView(input, budget, view, { json }) {
  const bytes = Buffer.byteLength(view.text);
  check(view.metadata.outputBytes === bytes, 'outputBytes is not the size of the text');
  if (view.metadata.strategy === 'unchanged') {
    check(view.text === input && !view.metadata.contentLost, 'unchanged view differs from input');
    return;
  }
  check(bytes <= budget, `over budget: ${bytes} > ${budget}`);
  const notes = trailingDisclosureNotes(view.text);
  check(
    notes.length === (view.metadata.contentLost ? 1 : 0),
    'a note is not there exactly when content was lost',
  );
  const body = stripDisclosureNotes(view.text);
  if (view.metadata.strategy === 'json' || view.metadata.strategy === 'minified') {
    check(isJson(body), 'JSON body does not parse');
    if (json) {
      const known = new Set(numberTokens(input));
      for (const token of numberTokens(body))
        check(known.has(token), `number ${token} is not in the input`);
    }
  }
}

const trimmer = createStructuralTrimmer();
const digester = createDigester({ env: {} });
let segmenter;
const clusters = (text) => {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let count = 0;
  for (const _ of segmenter.segment(text)) count++;
  return count;
};

/**
 * A question for a trim, of a shape a caller may send: none, ordinary words, words taken from
 * the input, long repetitive words (16 000 `x`: the scan tries a word at every place, so its
 * length multiplies the cost), many distinct long words, regex metacharacters, lone
 * surrogates and combining marks.
 */
function queryFor(random, input, large) {
  const shape = random.int(8);
  if (shape <= 1) return undefined;
  if (shape === 2)
    return random.pick([
      'is anything wrong?',
      'which pods failed',
      'how many of each status?',
      'newest 5',
    ]);
  if (shape === 3) {
    const at = random.int(Math.max(1, input.length));
    return input.slice(at, at + 1 + random.int(64));
  }
  if (shape === 4)
    return random.pick(['x', 'a', '0', 'é']).repeat(1 + random.int(large ? 32_000 : 4_000));
  if (shape === 5) {
    const stem = 'x'.repeat(50 + random.int(200));
    return Array.from({ length: 40 }, (_, i) => `${stem}${i.toString(36)}`).join(' ');
  }
  if (shape === 6)
    return random.pick([['.*+?^', '$', '{}()|[]\\/'].join(''), '(a+)+$', '\\d{1,3}', '"key":']);
  return random.pick(['\ud800x\udfff', 'e\u0301\u0301\u0301', '🇫🇷 李白 error', '\u0000\n\r']);
}

function trimEntry(kind) {
  return {
    generate: (random, large) => {
      const input =
        kind === 'json'
          ? jsonInput(random, large)
          : kind === 'lines'
            ? linesInput(random, large)
            : textInput(random, large);
      const bytes = Buffer.byteLength(input);
      return {
        input,
        budget: 256 + random.int(Math.max(1, Math.floor(bytes * 1.2))),
        query: queryFor(random, input, large),
      };
    },
    run: ({ input, budget, query }) =>
      trimmer.trim(input, budget, query === undefined ? undefined : { userQuery: query }),
    check: ({ input, budget }, view, again) => {
      checkView(input, budget, view, { json: kind === 'json' && isJson(input) });
      check(again.text === view.text, 'not deterministic');
      if (view.metadata.strategy === 'ndjson' && view.metadata.contentLost) {
        // Every line between a torn first and last one is a record or a part of one, or, where
        // the text is read line by line (a line of it does not parse), one of its lines.
        const own = new Set(input.split('\n').map((line) => line.replace(/\r$/, '')));
        const lines = stripDisclosureNotes(view.text).split('\n').slice(1, -1);
        check(
          lines.every((line) => isJson(line) || own.has(line.replace(/\r$/, ''))),
          'a line of a JSON lines view is neither JSON nor a line of the input',
        );
      }
    },
    baseline: ({ input }) => (kind === 'json' && isJson(input) ? JSON.parse(input) : scan(input)),
    allowed: (error) => BudgetTooSmallError.isInstance(error),
  };
}

const SEARCH_ATOMS = ['a', 'b', 'x', '.', '\\.', '\\d', '[a-c]', 'word', 'ERROR', ' '];
function searchPattern(random) {
  if (random.chance(0.5))
    return {
      pattern: random.pick(['needle', 'error', 'e\u0301', '🇫🇷', '...', 'word']),
      regex: false,
    };
  // At most one quantified atom and no quantified group: the RegExp the check compares with
  // backtracks, and a quantified overlapping alternation such as ([a-c]|.)+ makes it
  // exponential on an 800-byte line (the search itself runs RE2, linear).
  let pattern = '';
  let quantified = false;
  for (let i = 1 + random.int(4); i > 0; i--) {
    let atom = random.pick(SEARCH_ATOMS);
    const group = random.chance(0.3);
    if (group) atom = `(${atom}|${random.pick(SEARCH_ATOMS)})`;
    const quantifier = quantified || group ? '' : random.pick(['', '', '+', '*', '?', '{1,3}']);
    quantified ||= quantifier !== '';
    pattern += atom + quantifier;
  }
  return { pattern, regex: true };
}

/** The entry points, each with its generator, its pass, its invariants and a linear baseline. */
export const FUZZ_ENTRIES = {
  'trim (JSON)': trimEntry('json'),
  'trim (text)': trimEntry('text'),
  'trim (JSON lines)': trimEntry('lines'),
  digest: {
    generate: (random, large) => ({ input: jsonInput(random, large) }),
    run: ({ input }) => digester.digest(input),
    check: ({ input }, outcome, again) => {
      const valid = isJson(input);
      check(outcome.ok === valid, `ok is ${outcome.ok} for ${valid ? 'valid' : 'invalid'} JSON`);
      check(JSON.stringify(again) === JSON.stringify(outcome), 'not deterministic');
      if (!outcome.ok) return;
      check(isJson(outcome.digest), 'digest does not parse');
      const known = new Set(numberTokens(input));
      for (const token of numberTokens(outcome.digest))
        check(known.has(token), `number ${token} is not in the input`);
      if (!outcome.contentLost) {
        check(
          sameValue(outcome.digest, input),
          'a digest that claims no loss is not the whole value',
        );
      }
    },
    baseline: ({ input }) => (isJson(input) ? JSON.parse(input) : scan(input)),
  },
  excerpt: {
    generate: (random, large) => {
      const input = textInput(random, large);
      const d = describeText(input);
      const source = {
        totalChars: d.chars,
        totalBytes: d.bytes,
        digest: d.digest,
        ...(random.chance(0.5) ? { file: 'call_1.txt' } : {}),
      };
      const budget = minimumExcerptBudget(source) + random.int(600);
      return {
        input,
        source,
        budget,
        ...(random.chance(0.3) ? { maxBytes: budget + random.int(800) } : {}),
      };
    },
    run: ({ input, source, budget, maxBytes }) =>
      excerpt(input, budget, source, maxBytes === undefined ? {} : { maxBytes }),
    check: ({ input, source, budget, maxBytes }, result, again) => {
      check(again.text === result.text, 'not deterministic');
      check(clusters(result.text) <= budget, 'over the char budget');
      if (maxBytes !== undefined)
        check(Buffer.byteLength(result.text) <= maxBytes, 'over maxBytes');
      check(
        result.contentLost === (result.text !== input),
        'contentLost does not say whether text is the input',
      );
      if (!result.contentLost) return;
      check(
        input.startsWith(result.head) && input.endsWith(result.tail),
        'head or tail is not from the input',
      );
      check(result.head.length + result.tail.length < input.length, 'head and tail overlap');
      const marker = parseExcerptMarker(result.marker);
      check(
        marker?.digest === source.digest && marker.totalBytes === source.totalBytes,
        'marker does not name the source',
      );
    },
    baseline: ({ input }) => scan(input),
    allowed: (error) => error?.code === 'invalid_argument' && /maxBytes of/.test(error.message),
  },
  'lossless parse': {
    generate: (random, large) => ({ input: jsonInput(random, large) }),
    run: ({ input }) => {
      const parsed = parseJsonLossless(input);
      return parsed.ok ? { ok: true, text: stringifyJsonLossless(parsed.value) } : { ok: false };
    },
    check: ({ input }, out, again) => {
      check(out.ok === isJson(input), 'ok is not whether JSON.parse accepts the text');
      check(JSON.stringify(again) === JSON.stringify(out), 'not deterministic');
      if (!out.ok) return;
      check(sameValue(out.text, input), 'the value is not the one JSON.parse reads');
      const known = new Set(numberTokens(input));
      for (const token of numberTokens(out.text))
        check(known.has(token), `number ${token} is not in the input`);
    },
    baseline: ({ input }) => (isJson(input) ? JSON.parse(input) : scan(input)),
  },
  'artifact search': {
    generate: (random, large) => ({ input: textInput(random, large), ...searchPattern(random) }),
    run: ({ input, pattern, regex }) => {
      const matcher = compileSearchPattern(pattern, { regex });
      return input.split('\n').map((line) => matcher.find(line.slice(0, 4096), 0) !== undefined);
    },
    check: ({ input, pattern, regex }, matches, again) => {
      check(JSON.stringify(again) === JSON.stringify(matches), 'not deterministic');
      const lines = input.split('\n');
      const reference = regex ? new RegExp(pattern, 'i') : undefined;
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i].slice(0, 4096);
        // The engine's `.` and case folding beyond printable ASCII are its own (a CR, a lone
        // surrogate, an emoji): the RegExp reference is compared on printable ASCII lines.
        if (regex && !/^[\x20-\x7e]*$/.test(line)) continue;
        const expected = reference
          ? reference.test(line)
          : line.toLowerCase().includes(pattern.toLowerCase());
        check(
          matches[i] === expected,
          `line ${i + 1}: ${matches[i]} where the pattern ${JSON.stringify(pattern)} gives ${expected}`,
        );
      }
    },
    baseline: ({ input }) => scan(input),
    allowed: (error) => error?.name === 'ArtifactError',
  },
};

function timed(fn) {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Runs `cases` seeded cases of one entry point and returns what went wrong. With `cost`, a
 * share of the cases are large hostile inputs and every case over 16 KB is also timed
 * against the linear baseline: a case whose pass takes more than `cost.multiple` times the
 * baseline plus `cost.slackMs` (the least of three tries of each) is super-linear.
 */
export function fuzzEntry(name, { cases, seed, cost }) {
  const entry = FUZZ_ENTRIES[name];
  const violations = [];
  const superLinear = [];
  let maxRatio = 0;
  let timedCases = 0;
  for (let i = 0; i < cases; i++) {
    const caseSeed = (seed * 1_000_003 + i) >>> 0;
    const random = createRandom(caseSeed);
    const large = cost !== undefined && random.chance(cost.largeShare ?? 0.01);
    const input = entry.generate(random, large);
    let output;
    let again;
    try {
      output = entry.run(input);
      again = entry.run(input);
    } catch (error) {
      if (entry.allowed?.(error)) continue;
      violations.push({
        caseSeed,
        message: `threw ${error?.name}: ${error?.message}`,
        input: JSON.stringify(input).slice(0, 200),
      });
      continue;
    }
    try {
      entry.check(input, output, again);
    } catch (error) {
      violations.push({
        caseSeed,
        message: error.message,
        input: JSON.stringify(input).slice(0, 200),
      });
    }
    const size = Buffer.byteLength(input.input);
    if (cost && size >= 16_384) {
      timedCases++;
      let pass = Number.POSITIVE_INFINITY;
      let base = Number.POSITIVE_INFINITY;
      for (let t = 0; t < 3; t++) {
        base = Math.min(
          base,
          timed(() => entry.baseline(input)),
        );
        pass = Math.min(
          pass,
          timed(() => entry.run(input)),
        );
        if (pass <= cost.multiple * base + cost.slackMs) break;
      }
      const ratio = pass / Math.max(base, 1e-3);
      maxRatio = Math.max(maxRatio, ratio);
      if (pass > cost.multiple * base + cost.slackMs) {
        superLinear.push({
          caseSeed,
          bytes: size,
          passMs: pass,
          baselineMs: base,
          input: JSON.stringify(input).slice(0, 120),
        });
      }
    }
  }
  return { name, cases, violations, superLinear, maxRatio, timedCases };
}
