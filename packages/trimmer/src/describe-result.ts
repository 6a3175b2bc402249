import {
  detectLevel,
  LEVEL_ERROR,
  LEVEL_NAMES,
  levelOf,
  levelTable,
  type RawLevels,
} from './readers/line-level.js';
import { withTextUnits } from './readers/text-units.js';
import { DEFAULT_VOCABULARY, type Vocabulary } from './vocabulary.js';

const LIMIT = 160;
const KEYS_SHOWN = 8;
const QUOTE_UNITS = 100;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isRecord = (value: Json): value is { [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `text` on one line, at most `units` UTF-16 units, never ending inside a surrogate pair. */
function clip(text: string, units: number): string {
  const line = text.replace(/[\r\n\u2028\u2029]+/g, ' ');
  if (line.length <= units) return line;
  const end = /[\ud800-\udbff]/.test(line[units - 2]!) ? units - 2 : units - 1;
  return `${line.slice(0, end)}…`;
}

function keyList(keys: readonly string[]): string {
  const shown = keys.slice(0, KEYS_SHOWN).map((key) => clip(key, 32));
  return `{${shown.join(', ')}${keys.length > KEYS_SHOWN ? `, … ${keys.length - KEYS_SHOWN} more` : ''}}`;
}

/** The fields of a list's records: the keys of its objects, in first-seen order. */
function recordKeys(items: readonly Json[]): string[] {
  const keys = new Set<string>();
  for (const item of items.slice(0, 50))
    if (isRecord(item)) for (const key of Object.keys(item)) keys.add(key);
  return [...keys];
}

const isRecordList = (value: Json): boolean =>
  Array.isArray(value) && value.length > 0 && value.filter(isRecord).length * 2 > value.length;

/** The longest list of records within two levels of `root`, with its path. */
function largestRecordList(root: {
  [key: string]: Json;
}): { path: string; items: Json[] } | undefined {
  let best: { path: string; items: Json[] } | undefined;
  const visit = (value: Json, path: string, depth: number) => {
    // The first of the longest, so the digest is the same for the same text.
    if (isRecordList(value)) {
      if (!best || (value as Json[]).length > best.items.length)
        best = { path, items: value as Json[] };
    } else if (depth < 2 && isRecord(value))
      for (const [key, child] of Object.entries(value))
        visit(child, path ? `${path}.${key}` : key, depth + 1);
  };
  visit(root, '', 0);
  return best;
}

function describeJson(value: Json): string {
  if (Array.isArray(value)) {
    return isRecordList(value)
      ? `JSON array of ${value.length} records ${keyList(recordKeys(value))}`
      : `JSON array of ${value.length} values`;
  }
  if (isRecord(value)) {
    const list = largestRecordList(value);
    const records = list
      ? `; ${list.items.length} records at ${clip(list.path, 64)} ${keyList(recordKeys(list.items))}`
      : '';
    return `JSON object ${keyList(Object.keys(value))}${records}`;
  }
  if (typeof value === 'string') return `JSON string of ${value.length} chars`;
  return `JSON ${value === null ? 'null' : typeof value}`;
}

/**
 * JSON texts longer than this many UTF-16 units are not parsed for their shape: a parse holds
 * several times the text in memory, and a result of hundreds of MB would take the process's
 * heap with it.
 */
const MAX_PARSED_UNITS = 32 << 20;

function describeLines(text: string, vocabulary: Vocabulary): string {
  let lines = 0;
  const counts = new Array<number>(LEVEL_NAMES.length).fill(0);
  let lastError: [number, number] | undefined;
  let firstLine: [number, number] | undefined;
  const table = levelTable(vocabulary);
  const raw: RawLevels = new Map();
  withTextUnits(text, (units) => {
    for (let from = 0; from < text.length; ) {
      let to = text.indexOf('\n', from);
      if (to < 0) to = text.length;
      lines++;
      if (!firstLine && text.slice(from, to).trim() !== '') firstLine = [from, to];
      const level = levelOf(detectLevel(units, text, from, to, raw, undefined, table));
      if (level >= 0 && level < LEVEL_NAMES.length) {
        counts[level]!++;
        if (level >= LEVEL_ERROR) lastError = [from, to];
      }
      from = to + 1;
    }
  });
  const levels = LEVEL_NAMES.map((name, level) => [name, counts[level]!] as const)
    .reverse()
    .filter(([, count]) => count > 0);
  const plural = lines === 1 ? 'line' : 'lines';
  if (levels.length === 0) {
    const first = firstLine ? `; first: ${clip(text.slice(...firstLine).trim(), QUOTE_UNITS)}` : '';
    return `${lines} ${plural}${first}`;
  }
  const counted = levels.map(([name, count]) => `${name}=${count}`).join(' ');
  const last = lastError
    ? `; last error: ${clip(text.slice(...lastError).trim(), QUOTE_UNITS)}`
    : '';
  return `${lines} ${plural}; levels: ${counted}${last}`;
}

/**
 * One line saying what a tool result holds, for the pointer a result steps down to under a
 * conversation budget (issue 41): for JSON its shape and the record count of its largest list
 * of records (`JSON object {kind, items}; 200 records at items {name, phase}`), for text its
 * lines with the count of each level and the last error line, or its first line when no line
 * states a level. At most 160 UTF-16 units, never a line break. Levels are read with the
 * vocabulary's level words, as the trimmer reads them.
 */
export function describeResult(text: string, options: { vocabulary?: Vocabulary } = {}): string {
  if (typeof text !== 'string') return 'not text';
  if (text.trim() === '') return 'empty';
  const opening = text.trimStart()[0];
  if (text.length > MAX_PARSED_UNITS && (opening === '{' || opening === '[')) {
    const kind = opening === '[' ? 'array' : 'object';
    return `JSON ${kind} of ${text.length} characters (too large to read here for its records)`;
  }
  let json: Json | undefined;
  if ((opening === '{' || opening === '[' || opening === '"') && text.length <= MAX_PARSED_UNITS) {
    try {
      json = JSON.parse(text) as Json;
    } catch {
      // Not JSON: described by its lines.
    }
  }
  const line =
    json === undefined
      ? describeLines(text, options.vocabulary ?? DEFAULT_VOCABULARY)
      : describeJson(json);
  return clip(line, LIMIT);
}
