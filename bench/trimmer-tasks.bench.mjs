// What a reader can learn from a trimmed JSON view of a list of records, task by task: counts
// by state (with and without the question), one field for every record, the newest, oldest,
// last five and a time window, planted anomalies, record coverage, whether the note names the
// records by the right field, and whether every statement of the note is true. On the real
// lists of ../shared/fixtures (labelled by hand in lib/fixture-labels.mjs), generated lists of
// many shapes (lib/shapes.mjs) and, with TRIMMER_TASKS_EXTRA=/path/MANIFEST.json, payloads of
// one's own (JSON documents, or JSON lines marked `"ndjson": true`); the trimmer, its breadth-first option, a head cut, head+tail and a keyword line
// filter side by side in one run.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  LosslessNumber,
  parseRecordCoverage,
  stripDisclosureNotes,
  trailingDisclosureNotes,
} from '@compaction/core';
import { fixturesAvailable, readFixture } from '@compaction/fixtures';
import { FIXTURE_LABELS } from './lib/fixture-labels.mjs';
import { parse } from './lib/records.mjs';
import { markdownTable, writeResult } from './lib/report.mjs';
import {
  ANOMALY_KINDS,
  fieldOf,
  generatedLists,
  joinPath,
  plain,
  recordsAt,
  serialize,
  splitPath,
  valuesAt,
} from './lib/shapes.mjs';
import { viewMethods } from './lib/view-methods.mjs';

if (!fixturesAvailable()) {
  console.error('fixtures not available: ../shared/fixtures is missing');
  process.exit(1);
}
const started = performance.now();
const debug = Boolean(process.env.TRIMMER_BENCH_DEBUG);
/** The budget the debug lines are of (a share of the input). */
const DEBUG_SHARE = Number(process.env.TRIMMER_BENCH_DEBUG_SHARE ?? 0.03);

const SHARES = [0.01, 0.03, 0.1];
const DEPTHS = [0.35, 0.63, 0.92];
const GENERIC = 'is anything wrong?';

const METHODS = viewMethods();
const NAMES = Object.keys(METHODS);
const TRIMMERS = new Set(['trimmer', 'breadth-first']);
const budgetOf = (bytes, share) => Math.max(256, Math.floor(bytes * share));
let overBudget = 0;
let viewsMade = 0;

// ---------------------------------------------------------------- the lists
/** A labelled list: its records read from the document, and an index of them by identity. */
function labelled(list) {
  const root = list.root ?? parse(list.text);
  const records = recordsAt(root, list.listPath);
  if (!Array.isArray(records) || records.length === 0) {
    throw new Error(`${list.name}: no records at ${joinPath(list.listPath) || '(root)'}`);
  }
  const byKey = new Map();
  records.forEach((record, i) => {
    const key = keyOf(list, record);
    if (key === undefined) return;
    if (!byKey.has(key)) byKey.set(key, []);
    byKey.get(key).push(i);
  });
  // A map keyed by identity (`{"entries": {"<id>": {…}}}`): its keys name the records too.
  const container = list.listPath.reduce((node, key) => node?.[key], root);
  const byMapKey = Array.isArray(container)
    ? undefined
    : new Map(Object.keys(container).map((key, i) => [key, i]));
  return { ...list, root, records, bytes: Buffer.byteLength(list.text), byKey, byMapKey };
}

/**
 * The list a note describes: the labelled one when the note's path is its path, else the list
 * at the note's path (its records' fields read the same way, identity unlabelled), or undefined
 * where that path runs through a list of lists and so names no one array.
 */
function describedList(list, notePath) {
  // No path: the note had no room to say where (its counts are of the main list).
  if (notePath === '') return list;
  const path = notePath.replace(/(\[\]|\.?\*)$/, '');
  if (path === joinPath(list.listPath)) return list;
  const listPath = path === '' ? [] : splitPath(path);
  if (listPath.includes('[]')) return undefined;
  const records = recordsAt(list.root, listPath);
  if (!Array.isArray(records) && !(records && typeof records === 'object')) return undefined;
  return { name: list.name, records, listPath, other: true };
}
/** A record's identity as written (both columns of a composite key), or undefined. */
function keyOf(list, record) {
  const id = fieldOf(record, list.identity);
  if (id === undefined) return undefined;
  if (!list.identityWith) return id;
  const also = fieldOf(record, list.identityWith);
  return also === undefined ? undefined : `${also}\u0000${id}`;
}

function fixtureLists() {
  return FIXTURE_LABELS.map(({ fixture, why, ...label }) =>
    labelled({ name: fixture, source: 'fixture', text: readFixture(fixture), ...label }),
  );
}

/** Records of a text of JSON lines below which the trimmer judges no record (`MIN_RECORDS`). */
const MIN_LINE_RECORDS = 20;
/**
 * A generated list's records as a text of JSON lines (a log query's answer), its tasks scored
 * apart from the JSON documents'; `undefined` for a map of records or one of too few.
 */
function asLines(list) {
  const records = recordsAt(parse(list.text), list.listPath);
  if (!Array.isArray(records) || records.length < MIN_LINE_RECORDS) return undefined;
  const text = records.map((record) => JSON.stringify(record)).join('\n');
  return {
    ...list,
    name: `${list.name} (JSON lines)`,
    source: 'lines',
    text,
    root: records,
    listPath: [],
    lines: true,
  };
}

/** Lists named by the manifest at TRIMMER_TASKS_EXTRA; none without it. */
function extraLists() {
  const manifest = process.env.TRIMMER_TASKS_EXTRA;
  if (!manifest) return [];
  const entries = JSON.parse(readFileSync(manifest, 'utf8'));
  const path = (text) => (text ? splitPath(text) : undefined);
  return entries.map((entry) => {
    const listPath = splitPath(entry.listPath ?? '');
    while (listPath.length > 0 && ['[]', '*'].includes(listPath[listPath.length - 1])) {
      listPath.pop();
    }
    const text = readFileSync(resolve(dirname(manifest), entry.file), 'utf8');
    // A text of JSON lines (`"ndjson": true`): its object lines are the records.
    const lines = entry.ndjson === true;
    return labelled({
      name: entry.file,
      source: 'extra',
      text,
      ...(lines && {
        root: text
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => parse(line)),
        lines: true,
      }),
      listPath,
      identity: path(entry.identity),
      states: (entry.states ?? []).map(path),
      time: path(entry.time),
      textField: path(entry.text),
      numeric: (entry.numeric ?? []).map(path),
    });
  });
}

// ---------------------------------------------------------------- reading a view
/** Depth in braces before each character, strings skipped (a newline ends any string). */
function braceDepths(text) {
  const depth = new Int32Array(text.length + 1);
  let d = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    depth[i] = d;
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 && i + 1 < text.length && text.charCodeAt(i + 1) !== 10) depth[++i] = d;
      else if (c === 34 || c === 10) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123) d++;
    else if (c === 125) d--;
  }
  depth[text.length] = d;
  return depth;
}
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const lastKey = (path) => path.filter((key) => key !== '[]').at(-1);
/** `"key": value` occurrences in `text`: the value as written, without a string's quotes. */
function* keyValues(text, key) {
  const pattern = new RegExp(
    `"${escapeRegExp(key)}"\\s*:\\s*\\[?\\s*("(?:[^"\\\\\\n]|\\\\.)*"|-?\\d[\\d.eE+-]*|true|false|null)`,
    'g',
  );
  for (const match of text.matchAll(pattern)) {
    let value;
    try {
      value = plain(parse(match[1]));
    } catch {
      continue;
    }
    yield { at: match.index, value };
  }
}

/**
 * What a view shows of a list: the records named (identity in the view), and for each the
 * labelled fields shown in the same record. A body that parses as JSON with the list at its
 * path is read as JSON; any other view (a head cut is not valid JSON) by its text: a record
 * is the innermost brace span around its identity at the identity's depth, and a field is
 * shown when its key and value are written inside that span.
 */
function read(list, out) {
  const notes = trailingDisclosureNotes(out);
  let coverage;
  for (const note of notes) coverage ??= parseRecordCoverage(note.text);
  const body = notes.length > 0 ? stripDisclosureNotes(out) : out;
  const seen = { named: new Set(), fields: new Map(), coverage, body };
  let container;
  try {
    container = list.listPath.reduce((node, key) => node?.[key], parse(body));
  } catch {}
  const isMap = container && typeof container === 'object' && !Array.isArray(container);
  if (list.lines) {
    // A view of JSON lines: each line that parses is a record.
    seen.shown = [];
    for (const line of body.split('\n')) {
      try {
        seen.shown.push([undefined, parse(line)]);
      } catch {}
    }
    readJson(list, seen.shown, seen);
  } else if (Array.isArray(container) || (isMap && list.byMapKey)) {
    seen.shown = Array.isArray(container)
      ? container.map((item) => [undefined, item])
      : Object.entries(container);
    readJson(list, seen.shown, seen);
  } else readText(list, body, seen);
  return seen;
}

const fieldsOfList = (list) =>
  unique([...list.states, list.time, list.textField, ...list.numeric].filter(Boolean));
function unique(paths) {
  const seen = new Set();
  return paths.filter((path) => {
    const key = joinPath(path);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function readJson(list, shown, seen) {
  const fields = fieldsOfList(list);
  for (const [mapKey, item] of shown) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) continue;
    const key = keyOf(list, item);
    const byMap = list.byMapKey?.get(mapKey);
    const candidates =
      (key !== undefined && list.byKey.get(key)) || (byMap !== undefined ? [byMap] : undefined);
    if (!candidates) continue;
    const shownFields = fields
      .map((path) => [path, fieldOf(item, path)])
      .filter(([, value]) => value !== undefined);
    // Records sharing an identity (a client and a server span) are told apart by the fields shown.
    const open = candidates.filter((i) => !seen.named.has(i));
    const match =
      open.find((i) =>
        shownFields.every(([path, value]) => fieldOf(list.records[i], path) === value),
      ) ?? open[0];
    const values = new Map(shownFields.map(([path, value]) => [joinPath(path), value]));
    if (match === undefined) continue;
    seen.named.add(match);
    seen.fields.set(match, values);
  }
}

function readText(list, body, seen) {
  const depth = braceDepths(body);
  const fields = fieldsOfList(list);
  const levels = list.identity.length - 1;
  const occurrences = [...keyValues(body, lastKey(list.identity))].map(({ at, value }) => ({
    at,
    recordDepth: depth[at] - levels,
    value,
  }));
  if (list.byMapKey) {
    for (const match of body.matchAll(/"((?:[^"\\\n]|\\.)*)"\s*:\s*\{/g)) {
      let key;
      try {
        key = JSON.parse(`"${match[1]}"`);
      } catch {
        continue;
      }
      const index = list.byMapKey.get(key);
      if (index === undefined) continue;
      const brace = match.index + match[0].length;
      occurrences.push({
        at: brace,
        recordDepth: depth[brace],
        value: keyOf(list, list.records[index]),
        mapped: true,
      });
    }
  }
  for (const { at, recordDepth, value, mapped } of occurrences) {
    let start = at;
    while (start > 0 && depth[start - 1] >= recordDepth) start--;
    let end = at;
    while (end < body.length && depth[end] >= recordDepth) end++;
    const span = body.slice(start, end);
    let key = value;
    if (list.identityWith && !mapped) {
      const also = [...keyValues(span, lastKey(list.identityWith))][0];
      if (!also) continue;
      key = `${also.value}\u0000${value}`;
    }
    const candidates = list.byKey.get(key)?.filter((i) => !seen.named.has(i));
    if (!candidates?.length) continue;
    const shownOf = (i) => {
      const values = new Map();
      for (const path of fields) {
        const truth = fieldOf(list.records[i], path);
        for (const found of keyValues(span, lastKey(path))) {
          if (found.value === truth) values.set(joinPath(path), truth);
        }
      }
      return values;
    };
    let match = candidates[0];
    let values = shownOf(match);
    for (const i of candidates.slice(1)) {
      if (values.size > 0) break;
      const other = shownOf(i);
      if (other.size > 0) [match, values] = [i, other];
    }
    seen.named.add(match);
    seen.fields.set(match, values);
  }
}

/**
 * The field a note names, as a path within the records (keys may hold dots themselves; a name
 * the note cut short with `…` stands for the one field it begins, else for none).
 */
function pathOfNoteField(list, text) {
  if (text.endsWith('…')) {
    const prefix = text.slice(0, -1);
    const found = new Map();
    const walk = (node, path) => {
      if (node === null || typeof node !== 'object' || LosslessNumber.isInstance(node)) {
        const joined = joinPath(path);
        if (joined.startsWith(prefix)) found.set(joined, path);
        return;
      }
      if (Array.isArray(node)) for (const item of node) walk(item, [...path, '[]']);
      else for (const [key, value] of Object.entries(node)) walk(value, [...path, key]);
    };
    for (const record of list.records.slice(0, 200)) walk(record, []);
    return found.size === 1 ? [...found.values()][0] : undefined;
  }
  const direct = splitPath(text);
  if (list.records.some((record) => valuesAt(record, direct).length > 0)) return direct;
  const find = (node, rest) => {
    if (rest === '') return [];
    if (rest.startsWith('[]')) {
      if (!Array.isArray(node)) return undefined;
      for (const item of node) {
        const found = find(item, rest.slice(2).replace(/^\./, ''));
        if (found) return ['[]', ...found];
      }
      return undefined;
    }
    if (!node || typeof node !== 'object' || Array.isArray(node)) return undefined;
    const keys = Object.keys(node)
      .filter((key) => rest === key || rest.startsWith(`${key}.`) || rest.startsWith(`${key}[]`))
      .sort((a, b) => b.length - a.length);
    for (const key of keys) {
      const found = find(node[key], rest.slice(key.length).replace(/^\./, ''));
      if (found) return [key, ...found];
    }
    return undefined;
  };
  for (const record of list.records) {
    const found = find(record, text);
    if (found) return found;
  }
  return undefined;
}

// ---------------------------------------------------------------- truth of the note
/** Whether `told` (cleaned and maybe cut with `…` by the note) says `value`. */
const says = (told, value) =>
  told === value || (told.endsWith('…') && value.startsWith(told.slice(0, -1)));
const isNumberText = (text) => /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text);
/** Numbers as written compared by value, integers past 2^53 exactly. */
function compareNumbers(a, b) {
  if (/^-?\d+$/.test(a) && /^-?\d+$/.test(b)) {
    const d = BigInt(a) - BigInt(b);
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  }
  return Number(a) - Number(b);
}

/**
 * Whether `shown`, the values a view's item holds at a path, are the values `truth` a record
 * holds there, or parts of them: the same scalars, a string's start cut short (`…`), an object
 * or array with some of their members. Something must be shown.
 */
function shownPartOf(shown, truth) {
  const partOf = (part, whole) => {
    if (typeof part === 'string' && part.endsWith('…') && typeof whole === 'string') {
      return part.length > 1 && whole.startsWith(part.slice(0, -1));
    }
    if (part === null || typeof part !== 'object' || LosslessNumber.isInstance(part)) {
      return typeof part === typeof whole && plain(part) === plain(whole);
    }
    if (whole === null || typeof whole !== 'object') return false;
    const entries = Object.entries(part);
    if (entries.length === 0) return false;
    if (Array.isArray(part)) {
      return Array.isArray(whole) && part.every((item) => whole.some((w) => partOf(item, w)));
    }
    return entries.every(([key, value]) => Object.hasOwn(whole, key) && partOf(value, whole[key]));
  };
  return shown.length > 0 && shown.every((part) => truth.some((whole) => partOf(part, whole)));
}

/** Every statement of a view's note checked against the list: `{ ok, text }` each. */
function noteStatements(labelled, seen) {
  const note = seen.coverage;
  if (!note) return [];
  // A note describes the list its path names, which need not be the labelled one (a compare's
  // seven files, not its three commits): its statements are checked against that list.
  const list = describedList(labelled, note.path);
  if (!list) {
    statements.unchecked++;
    return [];
  }
  if (list.other) statements.other++;
  const out = [];
  const state = (ok, text) => out.push({ ok: Boolean(ok), text: `${list.name}: ${text}` });
  const n = list.records.length;
  state(note.atLeast ? note.total <= n : note.total === n, `total ${note.total} (true ${n})`);
  const column = (field) => {
    const path = pathOfNoteField(list, field);
    if (!path) return undefined;
    return list.records.map((record) => fieldOf(record, path));
  };
  for (const { field, value } of note.constant ?? []) {
    const values = column(field);
    const ok =
      values?.every((v) => v !== undefined) &&
      (value === '' ? new Set(values).size === 1 : values.every((v) => says(value, v)));
    state(ok, `every record: ${field}=${value}`);
  }
  // A distribution told of fields alike (`by A, B: …`) is a statement of each of them.
  const divisions = (note.distributions ?? []).flatMap((distribution) =>
    [distribution.field, ...(distribution.alike ?? [])].map((field) => ({
      ...distribution,
      field,
    })),
  );
  for (const distribution of divisions) {
    const values = column(distribution.field);
    if (!values) {
      state(false, `by ${distribution.field}: no such field`);
      continue;
    }
    const counts = new Map();
    for (const v of values) if (v !== undefined) counts.set(v, (counts.get(v) ?? 0) + 1);
    const present = values.filter((v) => v !== undefined).length;
    for (const { value, count } of distribution.values) {
      state(
        counts.get(value) === count,
        `by ${distribution.field}: ${value} ${count} (true ${counts.get(value) ?? 0})`,
      );
    }
    const told = distribution.values.reduce((sum, entry) => sum + entry.count, 0);
    const whole = told + (distribution.otherCount ?? 0);
    state(
      whole === (distribution.present ?? n) && (distribution.present ?? n) === present,
      `by ${distribution.field}: adds up to ${whole} of ${distribution.present ?? n} (true ${present} with the field)`,
    );
    if (distribution.otherValues !== undefined) {
      const rest = counts.size - distribution.values.length;
      state(
        distribution.otherValues === rest,
        `by ${distribution.field}: ${distribution.otherValues} other values (true ${rest})`,
      );
    }
  }
  for (const range of note.ranges ?? []) {
    const values = column(range.field)?.filter((v) => v !== undefined && v !== 'null');
    if (!values?.length) {
      state(false, `range of ${range.field}: no such field`);
      continue;
    }
    const numeric = values.every(isNumberText);
    const sorted = [...values].sort(
      numeric ? compareNumbers : (a, b) => (a < b ? -1 : a > b ? 1 : 0),
    );
    const same = (a, b) => (numeric ? isNumberText(a) && compareNumbers(a, b) === 0 : a === b);
    state(
      same(range.from, sorted[0]),
      `range of ${range.field}: from ${range.from} (true ${sorted[0]})`,
    );
    state(
      same(range.to, sorted.at(-1)),
      `range of ${range.field}: to ${range.to} (true ${sorted.at(-1)})`,
    );
    if (range.median !== undefined) {
      const middle = sorted[Math.floor((sorted.length - 1) / 2)];
      state(
        same(range.median, middle),
        `range of ${range.field}: median ${range.median} (true ${middle})`,
      );
    }
  }
  if (note.omitted || note.omittedMore) {
    const left =
      (note.omitted ?? []).reduce((sum, kind) => sum + kind.count, 0) + (note.omittedMore ?? 0);
    state(left <= note.total - note.named, `omitted ${left} of at most ${note.total - note.named}`);
  }
  if (note.namedBy !== undefined && !list.other) {
    // Two fields that name the records together are written `a+b`: a record is named when
    // both are shown in one item, its identity `a` whole, `b` whole or a part of it (what a
    // record says beside an id that reads as nothing: a text cut short, or the text inside
    // the parts it holds); a record without `b` is named by `a` alone.
    const paths = note.namedBy.split('+').map((part) => pathOfNoteField(list, part));
    const path = paths.every(Boolean) ? paths : undefined;
    // A value shown k times names at most k of the records holding it.
    let named = 0;
    if (path) {
      const [idPath, ...rest] = path;
      const shownItems = seen.shown
        ? seen.shown.map(([, item]) => item).filter((item) => item && typeof item === 'object')
        : path.length === 1
          ? [...keyValues(seen.body, lastKey(idPath))].map((found) => ({ value: found.value }))
          : [];
      const idOf = seen.shown ? (item) => fieldOf(item, idPath) : (item) => plain(item.value);
      const byId = new Map();
      for (const record of list.records) {
        const id = fieldOf(record, idPath);
        if (id === undefined) continue;
        const same = byId.get(id);
        if (same) same.push(record);
        else byId.set(id, [record]);
      }
      for (const item of shownItems) {
        const same = byId.get(idOf(item));
        if (!same) continue;
        const at = same.findIndex((record) =>
          rest.every((p) => {
            const truth = valuesAt(record, p);
            return truth.length === 0 || shownPartOf(valuesAt(item, p), truth);
          }),
        );
        if (at < 0) continue;
        same.splice(at, 1);
        named++;
      }
    }
    state(path && note.named === named, `named ${note.named} by ${note.namedBy} (true ${named})`);
  }
  return out;
}

// ---------------------------------------------------------------- tasks
/** The key paths of a list's records (array steps left out), as `\u0000`-joined text. */
function keyPathsOf(list) {
  const paths = new Set();
  const walk = (node, path) => {
    if (node === null || typeof node !== 'object' || LosslessNumber.isInstance(node)) return;
    for (const [key, value] of Array.isArray(node)
      ? node.map((v) => ['', v])
      : Object.entries(node)) {
      const next = key === '' ? path : [...path, key];
      if (key !== '') paths.add(next.join('\u0000'));
      if (next.length < 6) walk(value, next);
    }
  };
  for (const record of list.records.slice(0, 300)) walk(record, []);
  return paths;
}

/**
 * How a question names the field at `path`: its key (`reason`), or as many of its last keys as
 * tell it from every other field of the records that ends alike (`involvedObject.kind` where
 * events have a `kind` of their own).
 */
function keyName(list, path) {
  const keys = path.filter((key) => key !== '[]');
  list.keyPaths ??= keyPathsOf(list);
  const own = keys.join('\u0000');
  for (let n = 1; n < keys.length; n++) {
    const tail = keys.slice(-n).join('\u0000');
    const alike = [...list.keyPaths].some(
      (other) => other !== own && (other === tail || other.endsWith(`\u0000${tail}`)),
    );
    if (!alike) return joinPath(keys.slice(-n));
  }
  return joinPath(keys);
}
/** A time value as a number to order by, or undefined. */
function timeKey(value) {
  if (value === undefined || value === 'null') return undefined;
  if (isNumberText(value)) return Number(value);
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}
const shownWith = (seen, i, path, value) => seen.fields.get(i)?.get(joinPath(path)) === value;

/** The questions asked of a list, by task. */
function questionsOf(list) {
  const recency = [];
  const timed =
    list.time !== undefined &&
    list.records.some((record) => timeKey(fieldOf(record, list.time)) !== undefined);
  const window = timed ? timeWindow(list) : undefined;
  if (timed) {
    const key = keyName(list, list.time);
    recency.push(
      { task: 'newest', question: `Which record has the latest ${key}?` },
      { task: 'oldest', question: `Which record has the earliest ${key}?` },
      { task: 'last 5', question: `What are the last 5 records by ${key}?` },
    );
    if (window) {
      recency.push({
        task: 'window',
        question: `Which records have ${key} between ${window.from} and ${window.to}?`,
      });
    }
  }
  const everyRecord = unique(
    [...list.states, list.time, list.numeric[0], list.textField].filter(Boolean),
  );
  return {
    aggregates: list.states.map((path) => ({
      path,
      question: `How many records are there of each ${keyName(list, path)}?`,
    })),
    everyRecord: everyRecord.flatMap((path) => [
      { path, wording: 'what is', question: `What is the ${keyName(list, path)} of each record?` },
      { path, wording: 'list every', question: `List every record's ${keyName(list, path)}.` },
    ]),
    recency,
    window,
  };
}

/** Bounds such that about 3% of the records (at least 2) fall inside, from the middle. */
function timeWindow(list) {
  const timed = list.records
    .map((record) => ({ value: fieldOf(record, list.time) }))
    .map((entry) => ({ ...entry, key: timeKey(entry.value) }))
    .filter((entry) => entry.key !== undefined)
    .sort((a, b) => a.key - b.key);
  if (timed.length < 4) return undefined;
  const m = Math.max(2, Math.round(timed.length * 0.03));
  const start = Math.max(0, Math.floor(timed.length / 2 - m / 2));
  const from = timed[start];
  const to = timed[Math.min(timed.length - 1, start + m - 1)];
  return { from: from.value, to: to.value, low: from.key, high: to.key };
}

/** Counts by value of a field over the records that have it. */
function countsOf(list, path) {
  const counts = new Map();
  for (const record of list.records) {
    const value = fieldOf(record, path);
    if (value !== undefined) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return counts;
}

/**
 * Aggregates of state `path`: `rare` (the count of its rarest value, ties to the smallest
 * value) and `full` (every value with its exact count) derivable from the note's distribution
 * or constant, or from a body that shows every record with its value. A wrong count told
 * scores 0.
 */
function aggregateScore(list, path, seen) {
  const counts = countsOf(list, path);
  const entries = [...counts].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
  const [rareValue, rareCount] = entries[0] ?? [];
  const field = joinPath(path);
  const note = seen.coverage;
  // A value inside a list of one (`"actions":["create"]`) is the list's field: the note may
  // name it by the list's path.
  const named = (told) => told === field || `${told}[]` === field;
  const distribution = note?.distributions?.find(
    (d) => named(d.field) || (d.alike ?? []).some(named),
  );
  if (distribution?.values.some(({ value, count }) => counts.get(value) !== count)) {
    return { rare: 0, full: 0 };
  }
  let rare = distribution?.values.some((v) => v.value === rareValue) ?? false;
  let full =
    distribution !== undefined &&
    !distribution.otherValues &&
    !distribution.otherCount &&
    distribution.values.length === counts.size;
  const constant = note?.constant?.find((c) => named(c.field));
  if (
    constant &&
    counts.size === 1 &&
    says(constant.value, [...counts.keys()][0]) &&
    [...counts.values()][0] === list.records.length
  ) {
    rare = full = true;
  }
  const everyRecord =
    seen.named.size === list.records.length &&
    list.records.every((record, i) => {
      const value = fieldOf(record, path);
      return value === undefined || shownWith(seen, i, path, value);
    });
  if (everyRecord) rare = full = true;
  return { rare: rare && rareCount !== undefined ? 1 : 0, full: full ? 1 : 0 };
}

/** `record` with only what lies along `path` (through every item of a list on the way). */
function project(record, path) {
  if (path.length === 0) return record;
  if (record === null || typeof record !== 'object' || LosslessNumber.isInstance(record)) {
    return undefined;
  }
  const [key, ...rest] = path;
  if (key === '[]') {
    return Array.isArray(record) ? record.map((item) => project(item, rest) ?? null) : undefined;
  }
  if (Array.isArray(record) || !Object.hasOwn(record, key)) return undefined;
  const inner = project(record[key], rest);
  return inner === undefined ? undefined : { [key]: inner };
}

/** `a` and `b` (projections of one record) as one object. */
function merge(a, b) {
  if (a === undefined) return b;
  if (b === undefined || typeof a !== 'object' || typeof b !== 'object') return a;
  if (Array.isArray(a) || Array.isArray(b)) return a;
  const out = { ...a };
  for (const [key, value] of Object.entries(b)) out[key] = merge(out[key], value);
  return out;
}

/**
 * The most a view of `budget` bytes can answer of "what is the F of each record?": the share
 * of the records holding `path` whose name and F alone (minified, nested as in the record, a
 * comma each) fit in the budget less the note's 8%, the cheapest first. No view does better.
 */
function everyRecordCeiling(list, path, budget) {
  const costs = [];
  for (const record of list.records) {
    if (fieldOf(record, path) === undefined) continue;
    let item = project(record, path);
    for (const name of [list.identity, list.identityWith]) {
      if (name) item = merge(item, project(record, name));
    }
    costs.push(Buffer.byteLength(serialize(item, 0)) + 1);
  }
  if (costs.length === 0) return 1;
  costs.sort((a, b) => a - b);
  let room = Math.floor(budget * 0.92);
  let fit = 0;
  while (fit < costs.length && costs[fit] <= room) room -= costs[fit++];
  return fit / costs.length;
}

/** Share of the records that have `path` shown named with their value in the same record. */
function everyRecordScore(list, path, seen) {
  const field = joinPath(path);
  const counts = countsOf(list, path);
  const constant = seen.coverage?.constant?.find((c) => c.field === field);
  const constantTold =
    constant !== undefined && counts.size === 1 && says(constant.value, [...counts.keys()][0]);
  let have = 0;
  let told = 0;
  list.records.forEach((record, i) => {
    const value = fieldOf(record, path);
    if (value === undefined) return;
    have++;
    if (seen.named.has(i) && (constantTold || shownWith(seen, i, path, value))) told++;
  });
  return have === 0 ? 1 : told / have;
}

/** The recency tasks over a view: newest, oldest, the last five, the window. */
function recencyScores(list, seen, window) {
  const timed = list.records
    .map((record, i) => ({ i, value: fieldOf(record, list.time) }))
    .map((entry) => ({ ...entry, key: timeKey(entry.value) }))
    .filter((entry) => entry.key !== undefined);
  const hit = (entry) =>
    seen.named.has(entry.i) && shownWith(seen, entry.i, list.time, entry.value);
  const max = Math.max(...timed.map((e) => e.key));
  const min = Math.min(...timed.map((e) => e.key));
  const byNewest = [...timed].sort((a, b) => b.key - a.key);
  // Records tied with the fifth newest: any of them completes the five.
  const fifth = byNewest[Math.min(4, byNewest.length - 1)].key;
  const above = byNewest.filter((e) => e.key > fifth);
  const tied = byNewest.filter((e) => e.key === fifth);
  const lastFive =
    above.every((e) => seen.named.has(e.i)) &&
    tied.filter((e) => seen.named.has(e.i)).length >= Math.min(5, byNewest.length) - above.length;
  const scores = {
    newest: timed.some((e) => e.key === max && hit(e)) ? 1 : 0,
    oldest: timed.some((e) => e.key === min && hit(e)) ? 1 : 0,
    'last 5': lastFive ? 1 : 0,
  };
  if (window) {
    const inside = timed.filter((e) => e.key >= window.low && e.key <= window.high);
    scores.window = inside.every((e) => seen.named.has(e.i)) ? 1 : 0;
  }
  return scores;
}

// ---------------------------------------------------------------- running the lists
/** Adds `value` to the tally under `key`: sum and count, for a mean. */
function tally(table, key, value) {
  const entry = table.get(key) ?? { sum: 0, count: 0 };
  entry.sum += value;
  entry.count++;
  table.set(key, entry);
}
const scores = new Map();
// False statements by what they say, with the number of views saying it and the first of them.
const statements = { checked: 0, true: 0, false: new Map(), other: 0, unchecked: 0 };
const fewer = new Map(
  NAMES.map((method) => [method, { cases: 0, fewer: 0, fieldCases: 0, fieldFewer: 0 }]),
);
const detail = [];
let errors = 0;

/** Views of one list, made once per method, budget and question. */
function viewsOf(list) {
  const cache = new Map();
  return (method, share, question) => {
    const key = `${method}|${share}|${question ?? ''}`;
    let seen = cache.get(key);
    if (!seen) {
      const budget = budgetOf(list.bytes, share);
      let out = '';
      try {
        out = METHODS[method](list.text, budget, question);
      } catch (error) {
        errors++;
        console.error(`${method} failed on ${list.name}: ${error?.message ?? error}`);
      }
      viewsMade++;
      if (Buffer.byteLength(out) > budget) overBudget++;
      seen = read(list, out);
      if (TRIMMERS.has(method)) {
        for (const statement of noteStatements(list, seen)) {
          statements.checked++;
          if (statement.ok) statements.true++;
          else {
            const entry = statements.false.get(statement.text) ?? {
              views: 0,
              first: `${method} ${share * 100}%${question ? ` "${question}"` : ''}`,
            };
            entry.views++;
            statements.false.set(statement.text, entry);
          }
        }
      }
      seen.body = undefined;
      seen.shown = undefined;
      cache.set(key, seen);
    }
    return seen;
  };
}

function runList(list) {
  const view = viewsOf(list);
  const asked = questionsOf(list);
  const row = { list, cells: {} };
  for (const share of SHARES) {
    for (const method of NAMES) {
      const unasked = view(method, share);
      const k = (family) => `${list.lines ? 'lines ' : ''}${family}|${share}|${method}`;
      const mine = method === 'trimmer' && share === 0.03 && !list.lines;
      const local = new Map();
      const add = (family, value) => {
        tally(scores, k(family), value);
        if (mine) tally(local, family, value);
      };
      add('coverage', unasked.named.size / list.records.length);
      if (!list.identityWith) {
        const byKey =
          list.byMapKey !== undefined &&
          unasked.coverage !== undefined &&
          unasked.coverage.namedBy === undefined &&
          unasked.coverage.path.endsWith('*');
        // A pair led by the labelled name names the records by it: the second field tells two
        // apart that share it (a Zipkin client and server span, `id+kind`) or gives an id that
        // reads as nothing a readable label (a poem's UUID its title, `id+title`).
        const namedBy = unasked.coverage?.namedBy;
        const label = joinPath(list.identity);
        const right = namedBy === label || namedBy?.startsWith(`${label}+`) || byKey;
        add('identity', right ? 1 : 0);
      }
      for (const { path, question } of asked.aggregates) {
        for (const [mode, seen] of [
          ['unasked', unasked],
          ['asked', view(method, share, question)],
        ]) {
          const { rare, full } = aggregateScore(list, path, seen);
          if (debug && method === 'trimmer' && share === DEBUG_SHARE && full < 1)
            console.error(
              `aggregates ${mode} ${list.name} ${joinPath(path)}: rare ${rare} full ${full} | bytes ${list.text?.length} records ${list.records.length} told ${JSON.stringify((seen.coverage?.distributions ?? []).map((d) => d.field))} const ${JSON.stringify((seen.coverage?.constant ?? []).map((c) => c.field))}`,
            );
          add(`aggregates rare ${mode}`, rare);
          add(`aggregates full ${mode}`, full);
        }
      }
      for (const { path, wording, question } of asked.everyRecord) {
        const seen = view(method, share, question);
        const told = everyRecordScore(list, path, seen);
        if (debug && method === 'trimmer' && wording === 'what is' && share === DEBUG_SHARE)
          console.error(
            `every: ${list.name} "${question}" ${told.toFixed(2)} named ${seen.named.size}/${list.records.length}`,
          );
        add(`every record ${wording}`, told);
        add(`every record ${wording} fully`, told === 1 ? 1 : 0);
        if (wording === 'what is') {
          add('every record ceiling', everyRecordCeiling(list, path, budgetOf(list.bytes, share)));
        }
        const counter = fewer.get(method);
        if (wording === 'what is' && !list.lines) {
          counter.fieldCases++;
          if (seen.named.size < unasked.named.size) {
            counter.fieldFewer++;
            if (debug && method === 'trimmer')
              console.error(
                `fewer: ${list.name} ${share * 100}% "${question}" ${seen.named.size} < ${unasked.named.size}`,
              );
          }
        }
      }
      if (asked.recency.length > 0) {
        const plainScores = recencyScores(list, unasked, asked.window);
        if (debug && method === 'trimmer' && share === DEBUG_SHARE)
          console.error(
            `recency: ${list.name} ${JSON.stringify(plainScores)} time ${joinPath(list.time)}`,
          );
        for (const { task, question } of asked.recency) {
          add(`recency ${task} unasked`, plainScores[task]);
          const score = recencyScores(list, view(method, share, question), asked.window)[task];
          if (debug && method === 'trimmer' && share === DEBUG_SHARE && score < 1)
            console.error(`recency asked: ${list.name} "${question}" ${score}`);
          add(`recency ${task} asked`, score);
        }
      }
      const generic = view(method, share, GENERIC);
      const counter = fewer.get(method);
      if (!list.lines) counter.cases++;
      if (!list.lines && generic.named.size < unasked.named.size) {
        counter.fewer++;
        if (debug && method === 'trimmer')
          console.error(
            `fewer: ${list.name} ${share * 100}% "${GENERIC}" ${generic.named.size} < ${unasked.named.size}`,
          );
      }
      if (mine) {
        for (const [family, entry] of local) row.cells[family] = entry.sum / entry.count;
        row.namedBy = unasked.coverage?.namedBy;
      }
    }
  }
  if (!list.lines) detail.push(row);
}

const anomalyRows = new Map();
function runPlanted(list) {
  const view = viewsOf(list);
  const id = list.planted;
  for (const share of SHARES) {
    for (const method of NAMES) {
      for (const [mode, question] of [
        ['unasked', undefined],
        ['generic', GENERIC],
      ]) {
        const hit = view(method, share, question).named.has(id) ? 1 : 0;
        if (debug && method === 'trimmer' && share === DEBUG_SHARE && !hit && !question)
          console.error(`anomaly missed: ${list.name} ${list.anomaly} record ${id}`);
        const lines = list.lines ? 'lines ' : '';
        tally(scores, `${lines}anomaly ${mode}|${share}|${method}`, hit);
        tally(scores, `${lines}anomaly ${list.anomaly} ${mode}|${share}|${method}`, hit);
        if (method === 'trimmer' && share === 0.03 && !list.lines) {
          const row = anomalyRows.get(list.name) ?? { hits: 0, cases: 0 };
          row.hits += hit;
          row.cases++;
          anomalyRows.set(list.name, row);
        }
      }
    }
  }
}

const generated = generatedLists();
const lists = [
  ...fixtureLists(),
  ...generated.map(labelled),
  ...extraLists(),
  ...generated.map(asLines).filter(Boolean).map(labelled),
];
for (const list of lists) {
  const start = performance.now();
  runList(list);
  if (debug) console.error(`${list.name}: ${((performance.now() - start) / 1000).toFixed(1)} s`);
}
const listSeconds = (performance.now() - started) / 1000;
let plantedCases = 0;
/** JSON lines are planted at one depth only, and counted apart. */
const LINES_DEPTH = DEPTHS[1];
let linesPlanted = 0;
for (const kind of ANOMALY_KINDS) {
  for (const depth of DEPTHS) {
    for (const list of generatedLists({ kind, depth })) {
      plantedCases++;
      runPlanted(labelled(list));
      const lines = depth === LINES_DEPTH ? asLines(list) : undefined;
      if (lines) {
        linesPlanted++;
        runPlanted(labelled(lines));
      }
    }
  }
}
const seconds = (performance.now() - started) / 1000;

// ---------------------------------------------------------------- report
const mean = (key) => {
  const entry = scores.get(key);
  return entry && entry.count > 0 ? (entry.sum / entry.count).toFixed(2) : '–';
};
const countOf = (key) => scores.get(key)?.count ?? 0;
/** Rows of a family: one per budget (and per variant), the five methods, the target. */
function familyTable(rows) {
  return markdownTable(
    ['task', 'budget', 'tasks', ...NAMES, 'target'],
    rows.flatMap(({ label, family, target }) =>
      SHARES.map((share) => [
        label,
        `${share * 100}%`,
        String(countOf(`${family}|${share}|trimmer`)),
        ...NAMES.map((method) => mean(`${family}|${share}|${method}`)),
        typeof target === 'function' ? target(share) : (target ?? ''),
      ]),
    ),
  );
}
const at3 = (value) => (share) => (share === 0.03 ? value : '');

const aggregateTable = familyTable([
  {
    label: "rarest value's count, no question",
    family: 'aggregates rare unasked',
    target: at3('≥ 0.9'),
  },
  { label: "rarest value's count, asked", family: 'aggregates rare asked', target: at3('≥ 0.9') },
  {
    label: 'full distribution, no question',
    family: 'aggregates full unasked',
    target: at3('≥ 0.9'),
  },
  { label: 'full distribution, asked', family: 'aggregates full asked', target: at3('≥ 0.9') },
]);
const everyTarget = (share) => (share === 0.03 ? '≥ 0.5' : share === 0.1 ? '≥ 0.9' : '');
const everyRecordTable = familyTable([
  {
    label: '"What is the F of each record?": share of records',
    family: 'every record what is',
    target: everyTarget,
  },
  { label: 'same, tasks fully answered', family: 'every record what is fully' },
  {
    label: '"List every record\'s F.": share of records',
    family: 'every record list every',
    target: everyTarget,
  },
  { label: 'same, tasks fully answered', family: 'every record list every fully' },
  {
    label: 'ceiling: share of records whose name and F alone fit (any method)',
    family: 'every record ceiling',
  },
]);
const recencyTable = familyTable(
  ['newest', 'oldest', 'last 5', 'window'].flatMap((task) =>
    ['unasked', 'asked'].map((mode) => ({
      label: `${task}, ${mode === 'asked' ? 'asked' : 'no question'}`,
      family: `recency ${task} ${mode}`,
      target: at3('≥ 0.9'),
    })),
  ),
);
const anomalyTable = familyTable([
  { label: 'no question', family: 'anomaly unasked', target: at3('≥ 0.95') },
  { label: `"${GENERIC}"`, family: 'anomaly generic', target: at3('≥ 0.95') },
  ...ANOMALY_KINDS.flatMap((kind) => [
    { label: `${kind}, no question`, family: `anomaly ${kind} unasked` },
    { label: `${kind}, "${GENERIC}"`, family: `anomaly ${kind} generic` },
  ]),
]);
const coverageTable = familyTable([
  { label: 'share of records named, no question', family: 'coverage' },
]);
const identityTable = familyTable([
  { label: "note's namedBy is the labelled identity", family: 'identity', target: at3('1.00') },
]);
const linesTable = familyTable([
  { label: 'share of records named, no question', family: 'lines coverage' },
  { label: "rarest value's count, no question", family: 'lines aggregates rare unasked' },
  { label: "rarest value's count, asked", family: 'lines aggregates rare asked' },
  { label: 'full distribution, no question', family: 'lines aggregates full unasked' },
  { label: 'full distribution, asked', family: 'lines aggregates full asked' },
  { label: '"What is the F of each record?"', family: 'lines every record what is' },
  { label: 'newest, no question', family: 'lines recency newest unasked' },
  { label: 'oldest, no question', family: 'lines recency oldest unasked' },
  { label: 'last 5, asked', family: 'lines recency last 5 asked' },
  { label: 'planted anomaly, no question', family: 'lines anomaly unasked' },
  { label: `planted anomaly, "${GENERIC}"`, family: 'lines anomaly generic' },
  { label: "note's namedBy is the labelled identity", family: 'lines identity' },
]);
const fewerTable = markdownTable(
  ['', ...NAMES, 'target'],
  [
    [
      '"is anything wrong?": cases (list × budget)',
      ...NAMES.map((m) => String(fewer.get(m).cases)),
      '',
    ],
    [
      '"is anything wrong?" named fewer records',
      ...NAMES.map((m) => String(fewer.get(m).fewer)),
      '0 (trimmer)',
    ],
    [
      '"What is the F of each record?": cases (list × budget × F)',
      ...NAMES.map((m) => String(fewer.get(m).fieldCases)),
      '',
    ],
    [
      '"What is the F of each record?" named fewer records, each with its F',
      ...NAMES.map((m) => String(fewer.get(m).fieldFewer)),
      '',
    ],
  ],
);
const fixed2 = (value) => (value === undefined ? '–' : value.toFixed(2));
const familyMean = (cells, names) => {
  const values = names.map((name) => cells[name]).filter((v) => v !== undefined);
  return values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0) / values.length;
};
const detailTable = markdownTable(
  [
    'list',
    'source',
    'records',
    'coverage',
    'aggregates',
    'every record',
    'recency',
    'namedBy (labelled)',
    'anomalies',
  ],
  detail.map(({ list, cells, namedBy }) => {
    const anomalies = anomalyRows.get(list.name);
    return [
      list.name,
      list.source,
      String(list.records.length),
      fixed2(cells.coverage),
      fixed2(
        familyMean(cells, [
          'aggregates rare unasked',
          'aggregates rare asked',
          'aggregates full unasked',
          'aggregates full asked',
        ]),
      ),
      fixed2(familyMean(cells, ['every record what is', 'every record list every'])),
      fixed2(
        familyMean(
          cells,
          Object.keys(cells).filter((name) => name.startsWith('recency')),
        ),
      ),
      `${namedBy ?? '–'} (${list.identityWith ? `${joinPath(list.identityWith)}+` : ''}${joinPath(list.identity)})`,
      anomalies ? `${anomalies.hits}/${anomalies.cases}` : '',
    ];
  }),
);
const falseLines = [...statements.false].map(
  ([text, { views, first }]) => `${text} (in ${views} views; first: ${first})`,
);
for (const line of falseLines.slice(0, 30)) console.error(`false: ${line}`);
const falseShown = falseLines.slice(0, 12);
const falseCount = [...statements.false.values()].reduce((sum, entry) => sum + entry.views, 0);

const sources = (source) => lists.filter((list) => list.source === source).length;
writeResult(
  'trimmer-tasks',
  'Structural trimmer: what a reader can learn from a JSON view of a list',
  `Tasks a reader brings to a list of records, scored on the view each method makes: the
trimmer (information-first, the default), its \`selection: 'breadth-first'\` option, a head cut,
head+tail and a keyword line filter, all in this run, at 1%, 3% and 10% of the input's UTF-8
bytes (at least 256). Lists: ${sources('fixture')} real ones from \`../shared/fixtures\` (the
dominant array of each, its fields labelled by hand in \`bench/lib/fixture-labels.mjs\`),
${sources('generated')} generated ones of varied shape (\`bench/lib/shapes.mjs\`: key naming
in five styles and three languages, identities from readable names to snowflakes, UUIDs, shas,
e-mails and composite keys at depths 0–2, ISO and epoch times in any order, skewed, balanced and
long-tail states, noise, five envelopes, 20 to 2000 records, and spans, search hits, a
server-side Table, an IAM dump, a Terraform plan, commits, workflow runs, package versions named by
their dotted version and an hourly forecast named by its time)${sources('extra') ? `, and ${sources('extra')} extra (from \`TRIMMER_TASKS_EXTRA\`, marked \`extra\` below)` : ''}. Views made: ${viewsMade};
over budget: **${overBudget}**${errors ? `; methods that threw: ${errors}` : ''}. This run took ${Math.round(seconds)} s
(${Math.round(listSeconds)} s for the lists, the rest for ${plantedCases} planted ones).

How a view is read: the note (\`trailingDisclosureNotes\`, \`parseRecordCoverage\`) apart from
the body; a body that parses as JSON with the list at its path is walked record by record, any
other view (a head cut is not valid JSON) is read by substring: a record is the brace span
around its identity, a field is shown when its key and exact value are written inside it. A
record is *named* when its labelled identity (both columns of a composite key) is shown;
records sharing an identity (a Zipkin client and server span) are told apart by the fields
shown; on a map keyed by identity, the key names its record. Scores are means over tasks (one
task: one list, one field or question, one budget).

Judgement calls in the scoring: a field's value must be shown exactly (a message cut short does
not count); records lacking a field are left out of its tasks; ties for the rarest value go to
the smallest value; time ties count any of the tied records; counts a reader could work out
from the body plus the note's \`omitted\` kinds are not credited (only a distribution, a
constant, or every record shown); a \`named\` count is checked only when the note says by which
field, and a value shown k times names at most k records; a range is compared by value when
every value is a number (also one written as a string), else as strings; \`null\` is not a value
of a range. A question names a field F by its key, or by its last keys joined with \`.\` where
another field of the records ends with the same key (\`involvedObject.kind\` beside an event's own
\`kind\`).

## Aggregates by state

For each state field F, with no question and asked "How many records are there of each F?":
the count of F's rarest value, and every value with its exact count, are derivable from the
note (its distribution of F tells them, with no other-values bucket for the full one; or F is
constant and the note says so) or from a body that shows every record with its F. A count told
wrongly scores 0.

${aggregateTable}

## One field for every record

For F each state, the time, one measure and the free text, asked "What is the F of each
record?" and "List every record's F.": the share of the records holding F shown named with
F's exact value in the same record (or F constant and told by the note), and the share of tasks
answered for every record. The ceiling is what no view can pass: the share of the records whose
name and F alone, minified and nested as in the record, fit in the budget less the note's 8%
(the cheapest records first, no envelope).

${everyRecordTable}

## Recency

Lists with a time field T (ISO strings, epoch seconds or milliseconds, or a written date;
ascending, descending or shuffled): the newest and oldest record (any of those tied) shown
named with its T; the five newest all named (ties at the fifth: any); a window of about 3% of
the records (at least 2) by T, all named. With no question and asked ("Which record has the
latest T?", "…earliest T?", "What are the last 5 records by T?", "Which records have T between
A and B?").

${recencyTable}

## Planted anomalies

Each generated list with one record changed at ${DEPTHS.map((d) => `${d * 100}%`).join(', ')}
of the list, of each kind: a state value no other record has, an error message under a key no
other record has, a measure 50× the median, an error phrase inside a string value
(\`connection refused\`, \`OutOfMemoryError\`): ${plantedCases} lists. A hit needs the
record's identity in the view.

${anomalyTable}

## Record coverage

${coverageTable}

## Identity

Whether the note names the records by the labelled identity (\`namedBy\`, compared as a
joined path; a view with no \`namedBy\` scores 0, except on a map keyed by identity, where a
note at \`….*\` that names records by their keys is right; lists with a composite key are left
out, since one field cannot name them; a pair led by it is right: its second field tells two
records apart that share the labelled name, a Zipkin client and server span's \`id+kind\`, or
gives an id that reads as nothing a readable label beside it, a poem's \`id+title\`).

${identityTable}

## JSON lines

The records of each generated list of at least ${MIN_LINE_RECORDS}, written one JSON object a line
(a log query's answer; ${sources('lines')} lists, and ${linesPlanted} planted at ${LINES_DEPTH * 100}%),
read and scored as above: a record is a line of the view that parses. Scored apart from the JSON
documents above; their statements count in the note truthfulness below.

${linesTable}

## Note truthfulness

Every statement of every trimmer view's note (both trimmer methods, every list, budget and
question) checked against the list: the total; each constant true of every record; each
distribution's counts exact, adding up with the other values to the records with the field,
and the number of other values; each range's from, to (numbers compared numerically,
others as strings) and median (the lower middle); omitted at most total − named; named equal
to the records whose \`namedBy\` value is in the body. A note whose path names another list than
the labelled one (a compare's files, not its commits) is checked against the list at its path,
its names aside (${statements.other} views); one whose path runs through a list of lists is not
checked (${statements.unchecked} views). Statements: **${statements.checked}**,
true: **${statements.checked ? ((100 * statements.true) / statements.checked).toFixed(1) : '–'}%**
(target 100%); false: ${falseCount}.${falseShown.length ? `\n\nThe first false statements, each once (${statements.false.size} distinct):\n\n${falseShown.map((line) => `- ${line}`).join('\n')}` : ''}

## A question never names fewer records than no question

Per list and budget, the records named with "${GENERIC}", and with "What is the F of each
record?" (each F), against no question. A question whose words are common in the payload or
only in free text must not cost names (target 0). One that asks for a field of every record
is answered record by record, each named record with its F (see "One field for every
record"): the budget then names fewer records, each telling more; that row is shown, not
targeted.

${fewerTable}

## Per list: the trimmer at 3%

Means over the list's tasks; anomalies: hits over planted cases (both questions).

${detailTable}`,
);
