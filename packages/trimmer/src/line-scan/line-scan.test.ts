import { readFileSync } from 'node:fs';
import { fixturesAvailable, listFixtures, readFixture } from '@compaction/fixtures';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import initWabt from 'wabt';
import { readMeasuredNumbers } from '../engine/line-measures.js';
import { MeasuredNumbers } from '../engine/measured-numbers.js';
import { codeSlots } from '../engine/rare-line-codes.js';
import { textSignals } from '../engine/text-signals.js';
import { diffBlocks } from '../readers/diff-blocks.js';
import { diffUnits } from '../readers/diff-units.js';
import { detectLevel, LevelTailCues, levelTable, NO_LEVEL } from '../readers/line-level.js';
import { lineStarts } from '../readers/line-starts.js';
import { lineTemplate } from '../readers/line-template.js';
import { resolveVocabulary } from '../resolve-vocabulary.js';
import { seeded } from '../test-support/generated-lists.js';
import { DEFAULT_VOCABULARY, type Vocabulary } from '../vocabulary.js';
import { openLineScan, SCAN_ASKS_LEVEL } from './line-scan.js';
import { LINE_SCAN_WASM_BASE64 } from './line-scan-wasm.js';

const never = () => {};

function unitsOf(text: string): Uint16Array {
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  return units;
}

/** Per row, as text-signals.ts reads it in JavaScript: where it fills, and its template id. */
function rowsInJs(units: Uint16Array, starts: readonly number[]) {
  const rows = starts.length;
  const filled = new Int32Array(rows);
  const template = new Int32Array(rows);
  const ids = new Map<number, number>();
  const counts: number[] = [];
  for (let r = 0; r < rows; r++) {
    const from = starts[r]!;
    let to = r + 1 < rows ? starts[r + 1]! : units.length;
    while (to > from && (units[to - 1] === 0x0a || units[to - 1] === 0x0d)) to--;
    const window = Math.min(to, from + 1024);
    let i = from;
    while (i < window && (units[i] === 0x20 || units[i] === 0x09)) i++;
    filled[r] = i;
    const hash = lineTemplate(units, from, to, i);
    let id = ids.get(hash);
    if (id === undefined) {
      id = ids.size;
      ids.set(hash, id);
      counts.push(0);
    }
    counts[id]!++;
    template[r] = id;
  }
  return { filled, template, templates: ids.size, counts: Int32Array.from(counts) };
}

/** What the WebAssembly scan and the JavaScript give for each row of `text`, side by side. */
function bothScans(text: string) {
  const units = unitsOf(text);
  const starts = lineStarts(text, never);
  const js = rowsInJs(units, starts);
  const scan = openLineScan(units, starts);
  if (scan === undefined) throw new Error('WebAssembly is unavailable');
  try {
    scan.readTemplates(starts.length);
    const wasm = {
      filled: scan.rowFilled.slice(),
      template: scan.rowTemplate.slice(),
      templates: scan.templates,
      counts: scan.templateCounts.slice(0, scan.templates),
    };
    const jsSlots = codeSlots(units, starts, js.template, js.templates, js.counts, never);
    const wasmSlots = scan.codeSlots(wasm.template, wasm.templates, wasm.counts, never);
    const copy = (slots: typeof jsSlots) =>
      slots && {
        dense: Array.from(slots.dense),
        slotted: slots.slotted,
        slotValue: Array.from(slots.slotValue),
        slotCount: Array.from(slots.slotCount),
        slotSize: Array.from(slots.slotSize),
        rowCodes: Array.from(slots.rowCodes),
      };
    const jsNumbers = new MeasuredNumbers(starts.length);
    readMeasuredNumbers(units, starts, jsNumbers, never);
    const wasmNumbers = new MeasuredNumbers(starts.length);
    scan.measureNumbers(wasmNumbers, never);
    const numbers = (read: MeasuredNumbers) => ({
      measures: read.measures,
      measure: Array.from(read.measure.subarray(0, read.count)),
      value: Array.from(read.value.subarray(0, read.count)),
      row: Array.from(read.row.subarray(0, read.count)),
    });
    return {
      js: { ...js, slots: copy(jsSlots), numbers: numbers(jsNumbers) },
      wasm: { ...wasm, slots: copy(wasmSlots), numbers: numbers(wasmNumbers) },
    };
  } finally {
    scan.close();
  }
}

/**
 * The rows of `text` whose level as the scan reads it (`rowLevel`) is not what `detectLevel`
 * gives, and the share of rows whose level the scan read (none, or one no exit or alert word
 * may change).
 */
function scannedLevels(
  text: string,
  vocabulary: Vocabulary = DEFAULT_VOCABULARY,
): { wrong: string[]; read: number } {
  const units = unitsOf(text);
  const starts = lineStarts(text, never);
  const table = levelTable(vocabulary);
  const scan = openLineScan(units, starts, table);
  if (scan === undefined) throw new Error('WebAssembly is unavailable');
  const wrong: string[] = [];
  let read = 0;
  try {
    scan.readTemplates(starts.length);
    const raw = new Map<string, number>();
    const tail = new LevelTailCues(text, table);
    const cues = new LevelTailCues(text, table);
    for (let r = 0; r < starts.length; r++) {
      const from = starts[r]!;
      let to = r + 1 < starts.length ? starts[r + 1]! : text.length;
      while (to > from && (units[to - 1] === 0x0a || units[to - 1] === 0x0d)) to--;
      const level = detectLevel(units, text, from, to, raw, tail, table, scan.rowFilled[r]);
      const scanned = scan.rowLevel[r]!;
      const settled =
        scanned === NO_LEVEL ||
        (scanned !== SCAN_ASKS_LEVEL && !cues.within(from, Math.min(to, from + 1024)));
      if (settled) read++;
      if (settled && scanned !== level) wrong.push(`${scanned} ${level} ${text.slice(from, to)}`);
    }
  } finally {
    scan.close();
  }
  return { wrong, read: read / starts.length };
}

function signalsBoth(text: string) {
  const units = unitsOf(text);
  const starts = lineStarts(text, never);
  const input = {
    text,
    units,
    starts,
    unit: 'lines' as const,
    check: never,
    vocabulary: DEFAULT_VOCABULARY,
    lineStarts: starts,
  };
  // Records of two or three lines each: rows that hold line breaks.
  const records = {
    ...input,
    unit: 'records' as const,
    starts: starts.filter((_, i) => i % 5 === 0 || i % 5 === 2),
  };
  return [
    [textSignals({ ...input, backend: 'js' }), textSignals({ ...records, backend: 'js' })],
    [textSignals({ ...input, backend: 'wasm' }), textSignals({ ...records, backend: 'wasm' })],
  ];
}

/** The signals of the diff `text` read by hunks, in JavaScript and with the scan. */
function diffSignalsBoth(text: string) {
  const units = unitsOf(text);
  const lines = lineStarts(text, never);
  const input = {
    text,
    units,
    starts: diffUnits(text, diffBlocks(text, lines, never), 2000, false, never).starts,
    unit: 'hunks' as const,
    check: never,
    vocabulary: DEFAULT_VOCABULARY,
    lineStarts: lines,
  };
  return [textSignals({ ...input, backend: 'js' }), textSignals({ ...input, backend: 'wasm' })];
}

/** A unified diff of `files` files, from a seed: markers, context, levels and numbers in it. */
function generatedDiff(files: number, seed: number): string {
  const next = seeded(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const out: string[] = ['From 1234abcd Mon Sep 17 00:00:00 2001', 'Subject: [PATCH] bump', ''];
  for (let f = 0; f < files; f++) {
    out.push(`diff --git a/f${f}.go b/f${f}.go`, `--- a/f${f}.go`, `+++ b/f${f}.go`);
    for (let h = 0; h < 3; h++) {
      out.push(`@@ -${10 * h + 1},7 +${10 * h + 1},8 @@ func f${f}() {`);
      for (let k = 0; k < 8; k++) {
        out.push(
          `${pick(['+', '-', ' ', ' '])}${pick(['', '\t', '  '])}${pick([
            'if (level == Level::FATAL) {',
            'log.Error("failed", "code", 137)',
            `ERROR: exit code ${k}`,
            `require example.com/m v1.${k}.${h} // indirect`,
            `h1:${'x'.repeat(k)}=`,
            '',
            '}',
            `[warn] took ${k * 37}ms`,
          ])}`,
        );
      }
    }
  }
  return out.join('\n');
}

const ESC = '\u001b';

/** Logs of several shapes, `lines` lines each, from a seed. */
function generatedLogs(lines: number, seed: number): Record<string, string> {
  const next = seeded(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const hex = (n: number) =>
    Array.from({ length: n }, () => Math.floor(next() * 16).toString(16)).join('');
  const stamp = (i: number) => new Date(Date.UTC(2026, 2, 1, 6) + i * 37).toISOString();
  const each = (line: (i: number) => string) =>
    Array.from({ length: lines }, (_, i) => line(i)).join('\n');
  return {
    service: each((i) => {
      const roll = next();
      if (roll < 0.01)
        return `${stamp(i)} ERROR [w-${i % 8}] request ${hex(12)} failed\n\tat a.b.C(C.java:${i % 300})`;
      if (roll < 0.05)
        return `${stamp(i)} WARN  [w-${i % 8}] slow query: ${Math.floor(next() * 4000)} ms`;
      return `${stamp(i)} INFO  [w-${i % 8}] GET ${pick(['/v1/a', '/v1/b', '/healthz'])} ${pick([200, 200, 200, 404, 500])} ${Math.floor(next() * 900)}ms`;
    }),
    ndjson: each(
      (i) =>
        `{"ts":"${stamp(i)}","level":"${pick(['info', 'info', 'warn', 'error'])}","status":${pick([200, 201, 400, 503])},"id":"${hex(8)}-${hex(4)}"}`,
    ),
    coloured: each(
      (i) =>
        `${ESC}_bk;t=${1_700_000_000_000 + i}\u0007${ESC}[32m✓${ESC}[0m test ${pick(['parses', 'renders', 'saves'])} (${Math.floor(next() * 90)} ms)\r`,
    ),
    syslog: each(
      (i) =>
        `Dec ${1 + (i % 28)} 0${i % 10}:1${i % 6}:0${i % 9} host sshd[${24_000 + i}]: ${pick(['Accepted password for', 'Failed password for invalid user', 'pam_unix(sshd:session): session opened for'])} ${pick(['root', 'admin', 'x', 'oracle', 'test', 'guest', 'ubuntu', 'pi', 'git', 'ftp', 'mysql', 'user'])} from 10.0.${i % 256}.${(i * 7) % 256} port ${1024 + ((i * 13) % 6000)} ssh2`,
    ),
    indented: each(
      (i) =>
        `${' '.repeat(i % 9)}${'\t'.repeat(i % 2)}- key_${i % 5}: v-${i % 3}${pick(['', ' # c', '-1.2.3', ':8080'])}`,
    ),
    repeated: each((i) => (i % 10 < 7 ? 'CPU burner 3 running' : `tick ${i % 4} of 4`)),
    unicode: each(
      (i) =>
        `${pick(['naïve', 'e\u0301t\u00e9', '日本語 ログ', '\ud83d\ude00 ok', '\ud800 lone', 'x\udc00y'])} ${i % 7} code=${pick([1, 2, 3, 999])}`,
    ),
    crlfBlank: each((i) => (i % 5 === 0 ? '\r' : i % 7 === 0 ? '   \t ' : `line ${i}\r`)),
    long: each(
      (i) =>
        `${'w'.repeat(i % 300)} ${'1'.repeat(i % 13)} -${i % 9}x blk_-${6952 + i} a${'b'.repeat(i % 40)}`,
    ),
    // Levels stated every way `detectLevel` reads them, and words that only look like them.
    levels: each(
      (i) =>
        `${pick(LEVEL_OPENINGS)}${pick(LEVEL_OPENINGS)} ${pick(LEVEL_WORDS)} ${pick(['x', 'I', ':W:', 'was', '- E'])} ${pick(LEVEL_WORDS)} ${i}`,
    ),
  };
}

/** What a row may open with, for the level reads. */
const LEVEL_OPENINGS = [
  '',
  '2026-03-01T06:00:00Z ',
  '[05:04:04] ',
  'sshd[24324]: ',
  '03-17 16:13:47.150  1702 17633 E ActivityManager: ',
  'E0312 10:00:00.1 ',
  'W: ',
  '✖ ',
  '⚠\ufe0f ',
  '× ',
  `${ESC}[31m`,
  '  ',
  '\t',
  '+ ',
  '> ',
  'java.lang.IllegalStateException: ',
  'ValueError: ',
  'Traceback (most recent call last):',
  'Exception in thread "main" ',
  'Caused by: ',
  'error: ',
  'warning[E0133]: ',
  'Error',
  'main.Exception',
  '1.abc ',
];

/** Words around the rows' openings, for the level reads. */
const LEVEL_WORDS = [
  'ERROR',
  'error',
  '[error]',
  '<warn>',
  '(info)',
  '|fatal|',
  'Warning',
  'level=warn',
  '"severity":"error"',
  'severity: E',
  'lvl=30',
  'level: "x"',
  'exit code 137',
  'exit code 0',
  'exit_code=1',
  'exited with status 2',
  'firing',
  '"GET / HTTP/1.1" 503 12',
  '"GET / HTTP/1.1" 200 12',
  'http',
  'INFO',
  'information',
  'crit',
  'E:',
  'x:',
  'w',
  'errors',
  'WARN_',
  'Err',
  'T',
  '2024.01.05',
  'blk_-6952',
];

describe('the committed line-scan module', () => {
  it('is what line-scan.wat compiles to (run `pnpm build:wasm` after editing it)', async () => {
    const wabt = await initWabt();
    const source = readFileSync(new URL('./line-scan.wat', import.meta.url), 'utf8');
    const module = wabt.parseWat('line-scan.wat', source, { simd: true });
    module.validate();
    const { buffer } = module.toBinary({});
    module.destroy();
    expect(LINE_SCAN_WASM_BASE64).toBe(Buffer.from(buffer).toString('base64'));
  });
});

describe('the line scan in WebAssembly and in JavaScript', () => {
  const logs = { ...generatedLogs(3000, 1), ...generatedLogs(400, 2) };

  it.each(Object.keys(logs))('read each row of a %s log alike', (name) => {
    const { js, wasm } = bothScans(logs[name]!);
    expect(wasm).toEqual(js);
  });

  it.each(Object.keys(logs))(
    'give a %s log the same signals, read as lines and as records',
    (name) => {
      const [js, wasm] = signalsBoth(logs[name]!);
      expect(wasm).toEqual(js);
    },
  );

  const fixtures = fixturesAvailable() ? listFixtures({ kind: 'text' }) : [];
  it.skipIf(fixtures.length === 0).each(fixtures.map((fixture) => fixture.path))(
    'read each row of %s alike',
    (path) => {
      const text = readFixture(path);
      const { js, wasm } = bothScans(text);
      expect(wasm).toEqual(js);
      const [jsSignals, wasmSignals] = signalsBoth(text);
      expect(wasmSignals).toEqual(jsSignals);
    },
  );

  it('give a diff the same signals, its lines read past their markers', () => {
    for (const seed of [1, 2, 3]) {
      const [js, wasm] = diffSignalsBoth(generatedDiff(20, seed));
      expect(wasm).toEqual(js);
    }
    for (const fixture of fixtures.filter((each) => each.path.startsWith('diff/'))) {
      const [js, wasm] = diffSignalsBoth(readFixture(fixture.path));
      expect(wasm).toEqual(js);
    }
  });

  it("read each row's level as detectLevel does, where the scan reads one", () => {
    const piece = fc.oneof(
      fc.constantFrom(...LEVEL_OPENINGS, ...LEVEL_WORDS, ' ', ':', ']', '[', ' ] ', ']: ', '\r'),
      fc.string({ maxLength: 6, unit: 'binary' }),
    );
    const line = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), (lines) => {
        const text = lines.join('\n');
        expect(scannedLevels(text).wrong).toEqual([]);
      }),
      { numRuns: 400 },
    );
    const logs = generatedLogs(2000, 5);
    for (const name of Object.keys(logs)) expect(scannedLevels(logs[name]!).wrong).toEqual([]);
    // A level stated plainly, or none, is read by the scan itself: the JavaScript reads only
    // the rows left (a level key's value, an exit status, a level letter).
    expect(scannedLevels(logs.service!).read).toBe(1);
    expect(scannedLevels(logs.syslog!).read).toBeGreaterThan(0.6);
    // A vocabulary of other words reads as its own table says.
    const vocabulary = resolveVocabulary({
      levelWords: { failure: 'error', x: 'error', was: 'warn', Warning: 'warn' },
      levelLetters: { X: 'error', I: 'info' },
      levelKeys: ['lvl'],
      exitWords: ['quit'],
      alertWords: ['information'],
      statusProtocols: [],
      exceptionSuffixes: ['Fault', 'Exception'],
      exceptionOpeners: ['Panic at', 'x'],
      levelMarks: { '\u2620': 'fatal' },
    });
    for (const name of Object.keys(logs)) {
      expect(scannedLevels(logs[name]!, vocabulary).wrong).toEqual([]);
    }
    expect(
      scannedLevels(
        'X: a\nPanic at the disco\nBus.Fault: b\n\u2620 c\nlvl=was\nquit 3\nfailure [failure] FAILURE',
        vocabulary,
      ).wrong,
    ).toEqual([]);
  });

  it('read hostile lines alike: lone surrogates, CRLF, combining marks, long lines, digit runs', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '\ud800',
        '\udfff',
        '\ud83d\ude00',
        'e\u0301',
        '\r\n',
        '\r',
        '\n',
        '\n\n',
        ' ',
        '\t',
        ESC,
        `${ESC}[31m`,
        `${ESC}_bk;t=1\u0007`,
        `${ESC}]8;;x${ESC}\\`,
        '-',
        '.',
        ':',
        '/',
        '_',
        'blk_-6952',
        'ERROR',
        '200',
        '1234567',
        '0x1f',
        '3648ms',
        '1.5',
        '2024-05-02',
        'took 12.5ms',
        '0.0000001',
        '123456789012345678',
        'time=',
        '-7',
      ),
      fc.stringMatching(/^[0-9]{1,12}$/),
      fc.string({ maxLength: 12, unit: 'binary' }),
      fc.nat(400).map((n) => 'a'.repeat(n)),
      fc.nat(300).map((n) => '7'.repeat(n)),
    );
    const line = fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 60 }), fc.nat(40), (lines, copies) => {
        // Copies of a few lines give templates rows enough for code slots.
        const rows = [...lines, ...Array.from({ length: copies }, (_, i) => lines[i % 3] ?? '')];
        const { js, wasm } = bothScans(rows.join('\n'));
        expect(wasm).toEqual(js);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the memory of the line scan', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  // Growing a memory detaches the views JavaScript holds and slows every typed-array loop in the
  // process from then on (see core's `instantiateWasm`).
  it('is sized up front for texts of every size, never grown', () => {
    const memoryPrototype = (
      globalThis as unknown as {
        WebAssembly: { Memory: { prototype: { grow(pages: number): number } } };
      }
    ).WebAssembly.Memory.prototype;
    const grow = vi.spyOn(memoryPrototype, 'grow');
    for (const lines of [10, 3000, 40, 60_000, 5]) {
      const { js, wasm } = bothScans(generatedLogs(lines, lines).service!);
      expect(wasm).toEqual(js);
    }
    expect(grow).not.toHaveBeenCalled();
  });

  it('gives a scan opened while another holds the kept instance an instance of its own', () => {
    const outer = generatedLogs(500, 3).syslog!;
    const units = unitsOf(outer);
    const starts = lineStarts(outer, never);
    const scan = openLineScan(units, starts)!;
    try {
      scan.readTemplates(100);
      // A nested trim, as a caller's stop check might start.
      const { js, wasm } = bothScans(generatedLogs(300, 4).service!);
      expect(wasm).toEqual(js);
      scan.readTemplates(starts.length);
      expect(scan.rowTemplate.slice()).toEqual(rowsInJs(units, starts).template);
    } finally {
      scan.close();
    }
  });
});
