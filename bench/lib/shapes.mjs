// Generated JSON lists of many shapes, each with its ground truth (which field names a record,
// which are states, time, free text and measures), for the trimmer-tasks benchmark. Built so
// that no key name gives the answer away: key naming, identity kind and depth, time format and
// order, state skew, noise and envelope all vary, and some keys are not English. Deterministic.
import { LosslessNumber } from '@compaction/core';
import { hexOf, random } from './lists.mjs';
import { parse } from './records.mjs';

// ---------------------------------------------------------------- paths within a record
/** A key as a step of the trimmer's path: as it is, or as a JSON string when it holds `.`, `"`, … */
const step = (key) => (/^[^\u0000-\u0020\u007f."*[\]\\]+$/.test(key) ? key : JSON.stringify(key));

/** A path as the trimmer's note writes it: keys joined by `.`, array items as `[]`. */
export const joinPath = (path) =>
  path.reduce(
    (text, key) =>
      key === '[]'
        ? `${text}[]`
        : typeof key === 'object'
          ? `${text}[${key.key}=${key.value}]`
          : text
            ? `${text}.${step(key)}`
            : step(key),
    '',
  );

/**
 * `metadata.name` → `['metadata', 'name']`, `change.actions[]` → `[…, 'actions', '[]']`,
 * `labels."app.kubernetes.io/name"` → `['labels', 'app.kubernetes.io/name']`,
 * `conditions[type=Ready].status` → `['conditions', { key: 'type', value: 'Ready' }, 'status']`.
 */
/** A step that picks the items of a list by a key's value, as the note writes it. */
const SELECTOR = /^\[([^\s=[\]";,]+)=([^\s=[\]";,]+)\]/;

export const splitPath = (text) => {
  const path = [];
  for (let i = 0; i < text.length; ) {
    if (text[i] === '.') i++;
    else if (text.startsWith('[]', i)) {
      path.push('[]');
      i += 2;
    } else if (SELECTOR.test(text.slice(i))) {
      // `[type=Ready]`: the items of a list whose `type` is `Ready`.
      const [, key, value] = SELECTOR.exec(text.slice(i));
      path.push({ key, value });
      i += key.length + value.length + 3;
    } else if (text[i] === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      path.push(JSON.parse(text.slice(i, end + 1)));
      i = end + 1;
    } else {
      let end = i;
      while (
        end < text.length &&
        text[end] !== '.' &&
        !text.startsWith('[]', end) &&
        !SELECTOR.test(text.slice(end))
      ) {
        end++;
      }
      path.push(text.slice(i, end));
      i = end;
    }
  }
  return path;
};

/** A value as written in the JSON source, without the quotes of a string. */
export function plain(value) {
  if (LosslessNumber.isInstance(value)) return value.text;
  if (typeof value === 'string') return value;
  return String(value);
}

const isScalar = (value) =>
  value === null || typeof value !== 'object' || LosslessNumber.isInstance(value);

/** The leaves at `path` in `record` (`[]` goes into every item of an array). */
export function valuesAt(record, path) {
  let nodes = [record];
  for (const key of path) {
    const next = [];
    for (const node of nodes) {
      if (node === null || typeof node !== 'object' || LosslessNumber.isInstance(node)) continue;
      if (key === '[]') {
        if (Array.isArray(node)) next.push(...node);
      } else if (typeof key === 'object') {
        if (!Array.isArray(node)) continue;
        for (const item of node) {
          if (item === null || typeof item !== 'object' || !Object.hasOwn(item, key.key)) continue;
          const name = item[key.key];
          if (name !== null && isScalar(name) && plain(name) === key.value) next.push(item);
        }
      } else if (!Array.isArray(node) && Object.hasOwn(node, key)) next.push(node[key]);
    }
    nodes = next;
  }
  return nodes;
}

/**
 * The value of a field of a record as written (`plain`), or undefined when the record lacks it
 * or holds an object there. Through an array (`change.actions[]`) the items' values joined by
 * `+` (a one-item array is its item).
 */
export function fieldOf(record, path) {
  let values = valuesAt(record, path);
  // A value in a list of one (`"span.id": ["a1b2"]`, a search engine's fields API) is the
  // field's value; a list of a few values is one value of them all (`inspect+triage`), as
  // the trimmer's note counts the records holding each such list.
  if (values.length === 1 && Array.isArray(values[0]) && values[0].every(isScalar)) {
    values = values[0];
  }
  if (values.length === 0 || !values.every(isScalar)) return undefined;
  return values.map(plain).join('+');
}

/** The records of a document: the array at `listPath`, or the values of a map there. */
export function recordsAt(root, listPath) {
  let node = root;
  for (const key of listPath) node = node?.[key];
  if (Array.isArray(node)) return node;
  if (node && typeof node === 'object' && !LosslessNumber.isInstance(node)) {
    return Object.values(node);
  }
  return undefined;
}

// ---------------------------------------------------------------- writing JSON
/** JSON text of `value`, LosslessNumbers written as they are; indented by `indent` (0: minified). */
export function serialize(value, indent = 2) {
  const pad = (depth) => (indent ? `\n${' '.repeat(indent * depth)}` : '');
  const colon = indent ? ': ' : ':';
  const write = (node, depth) => {
    if (LosslessNumber.isInstance(node)) return node.text;
    if (node === null || typeof node !== 'object') return JSON.stringify(node);
    if (Array.isArray(node)) {
      if (node.length === 0) return '[]';
      return `[${node.map((item) => pad(depth + 1) + write(item, depth + 1)).join(',')}${pad(depth)}]`;
    }
    const keys = Object.keys(node);
    if (keys.length === 0) return '{}';
    return `{${keys.map((key) => `${pad(depth + 1)}${JSON.stringify(key)}${colon}${write(node[key], depth + 1)}`).join(',')}${pad(depth)}}`;
  };
  return write(value, 0);
}

// ---------------------------------------------------------------- vocabulary
// A concept's key in each naming style: English words (cased per style), an abbreviation,
// Spanish, French, German.
const WORDS = {
  service: [['service'], 'svc', 'servicio', 'service', 'dienst'],
  host: [['host', 'name'], 'hn', 'servidor', 'hote', 'rechner'],
  ref: [['ref'], 'rf', 'referencia', 'reference', 'verweis'],
  handle: [['handle'], 'hdl', 'alias', 'pseudo', 'kuerzel'],
  contact: [['contact'], 'eml', 'correo', 'courriel', 'kontakt'],
  number: [['record', 'no'], 'no', 'numero', 'numero', 'nummer'],
  key: [['object', 'key'], 'k', 'clave', 'cle', 'schluessel'],
  name: [['name'], 'nm', 'nombre', 'nom', 'name'],
  ns: [['namespace'], 'ns', 'espacio', 'espace', 'bereich'],
  status: [['status'], 'st', 'estado', 'etat', 'zustand'],
  tier: [['service', 'tier'], 'tr', 'nivel', 'niveau', 'stufe'],
  zone: [['placement', 'zone'], 'az', 'zona', 'zone', 'zone'],
  kind: [['event', 'kind'], 'knd', 'tipo', 'genre', 'art'],
  level: [['log', 'level'], 'lvl', 'gravedad', 'gravite', 'schwere'],
  customer: [['customer'], 'cust', 'cliente', 'client', 'kunde'],
  created: [['created', 'at'], 'ts', 'creado', 'horodatage', 'zeitstempel'],
  latency: [['latency', 'ms'], 'lat', 'latencia', 'latence', 'latenz'],
  bytes: [['response', 'bytes'], 'sz', 'tamano', 'taille', 'groesse'],
  retries: [['retry', 'count'], 'rc', 'reintentos', 'tentatives', 'versuche'],
  message: [['message'], 'msg', 'descripcion', 'commentaire', 'nachricht'],
  error: [['last', 'error'], 'err', 'error', 'erreur', 'fehler'],
  url: [['self', 'link'], 'href', 'enlace', 'lien', 'adresse'],
  token: [['continuation', 'token'], 'tok', 'ficha', 'jeton', 'marke'],
  etag: [['etag'], 'et', 'etiqueta', 'etiquette', 'kennzeichen'],
  schema: [['schema', 'version'], 'sv', 'version_esquema', 'version_schema', 'schemaversion'],
  owner: [['owner', 'team'], 'own', 'equipo', 'equipe', 'mannschaft'],
  source: [['source'], 'src', 'origen', 'origine', 'quelle'],
  parts: [['containers'], 'ctrs', 'contenedores', 'conteneurs', 'behaelter'],
  bookkeeping: [['managed', 'fields'], 'mf', 'campos_gestionados', 'champs_geres', 'verwaltet'],
  meta: [['metadata'], 'md', 'metadatos', 'metadonnees', 'kopf'],
  spec: [['spec'], 'sp', 'especificacion', 'specification', 'angabe'],
  ident: [['identity'], 'idn', 'identidad', 'identite', 'kennung'],
  state: [['state'], 'stt', 'situacion', 'situation', 'lage'],
};
const capital = (word) => word[0].toUpperCase() + word.slice(1);

function keyOf(style, concept) {
  const [words, abbreviation, es, fr, de] = WORDS[concept];
  switch (style) {
    case 'snake':
      return words.join('_');
    case 'camel':
      return words[0] + words.slice(1).map(capital).join('');
    case 'kebab':
      return words.join('-');
    case 'pascal':
      return words.map(capital).join('');
    case 'abbrev':
      return abbreviation;
    case 'es':
      return es;
    case 'fr':
      return fr;
    default:
      return de;
  }
}

const VALUES = {
  health: ['ok', 'degraded', 'draining', 'warming'],
  lifecycle: ['active', 'suspended', 'pending', 'archived', 'draft'],
  lifecycleEs: ['activo', 'suspendido', 'pendiente', 'archivado'],
  lifecycleFr: ['actif', 'suspendu', 'en-attente', 'archive'],
  lifecycleDe: ['aktiv', 'gesperrt', 'wartend', 'archiviert'],
  tier: ['gold', 'silver', 'bronze', 'free', 'trial'],
  kind: ['create', 'update', 'delete', 'read', 'list'],
  level: ['INFO', 'DEBUG', 'NOTICE', 'TRACE'],
  zone: Array.from(
    { length: 20 },
    (_, i) =>
      `${['eu', 'us', 'ap', 'sa'][i % 4]}-${['west', 'east', 'central', 'north', 'south'][i % 5]}-${1 + (i % 3)}${'abc'[i % 3]}`,
  ),
  customer:
    'acme globex initech umbrella hooli vandelay stark wayne tyrell cyberdyne soylent wonka gringotts oscorp aperture blackmesa massive nakatomi zorg duff'.split(
      ' ',
    ),
};
const RARE = ['failed', 'fallido', 'fehlgeschlagen', 'echoue', 'Evicted', 'error'];
const WORD_A =
  'billing ledger search orders auth media notify catalog pricing export inventory gateway profile report checkout session'.split(
    ' ',
  );
const WORD_B = 'api worker cron web sync proxy store queue indexer relay'.split(' ');
const FIRST =
  'ana bruno chen dara emil fatima goran hana ivo jun kemal lena mateo nadia oskar pia quinn rosa sven tomas'.split(
    ' ',
  );
const LAST =
  'alvarez berg cohen dubois eriksen fischer garcia haddad ito jansen kowalski lopez moreau novak okafor petrov'.split(
    ' ',
  );
const SUBJECTS =
  'the nightly export|payment reconciliation|the cache warmup|index compaction|the weekly report|tenant migration|invoice generation|the backup rotation|certificate renewal|the usage rollup'.split(
    '|',
  );
const VERBS =
  'finished|was scheduled|completed|was skipped|resumed|started|was queued|was rescheduled'.split(
    '|',
  );
const TAILS = 'for tenant|on shard|after batch|in partition|for region|under plan'.split('|');

// ---------------------------------------------------------------- random draws
const pick = (next, items) => items[Math.floor(next() * items.length)];
function shuffle(next, items) {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
/** A standard normal draw (Box–Muller). */
const normal = (next) => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
const lognormal = (next, median, sigma) => median * Math.exp(sigma * normal(next));
const uuid = (next) =>
  `${hexOf(next, 8)}-${hexOf(next, 4)}-4${hexOf(next, 3)}-a${hexOf(next, 3)}-${hexOf(next, 12)}`;
const token = (next, length) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  return Array.from({ length }, () => alphabet[Math.floor(next() * 64)]).join('');
};
const sentence = (next) =>
  `${capital(pick(next, SUBJECTS))} ${pick(next, VERBS)} ${pick(next, TAILS)} ${1 + Math.floor(next() * 90)}, ${pick(next, SUBJECTS)} ${pick(next, VERBS)} next.`;

/**
 * `count` values of a state column: `dominant` (one value 95%), `balanced` (3–5 values alike) or
 * `tail` (20 values, Zipf-like), in random record order; every value drawn occurs.
 */
function stateColumn(next, count, skew, vocabulary) {
  let counts;
  if (skew === 'dominant') {
    const rare = [Math.max(1, Math.round(count * 0.03)), Math.max(1, Math.round(count * 0.02))];
    counts = [count - rare[0] - rare[1], ...rare];
  } else if (skew === 'balanced') {
    const k = Math.min(vocabulary.length, 3 + Math.floor(next() * 3));
    const weights = Array.from({ length: k }, () => 0.8 + 0.4 * next());
    counts = apportion(count, weights);
  } else {
    counts = apportion(
      count,
      vocabulary.map((_, r) => 1 / (r + 1)),
    );
  }
  const column = counts.flatMap((n, i) => Array.from({ length: n }, () => vocabulary[i]));
  return shuffle(next, column);
}
/** `total` split by `weights`, each share at least 1 while total allows, summing to total. */
function apportion(total, weights) {
  const sum = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((w) =>
    Math.max(total >= weights.length ? 1 : 0, Math.floor((total * w) / sum)),
  );
  let left = total - counts.reduce((a, b) => a + b, 0);
  for (let i = 0; left !== 0; i = (i + 1) % counts.length) {
    if (left > 0) {
      counts[i]++;
      left--;
    } else if (counts[i] > 1) {
      counts[i]--;
      left++;
    }
  }
  return counts;
}

/** `count` times from `start` (ms) about `step` apart, in `order` (asc, desc, shuffled). */
function timeColumn(next, count, start, step, order) {
  let at = start;
  const times = Array.from({ length: count }, () => {
    at += Math.max(1, Math.round(step * (0.3 + 1.4 * next())));
    return at;
  });
  if (order === 'desc') times.reverse();
  return order === 'shuffled' ? shuffle(next, times) : times;
}
const formatTime = (ms, format) =>
  format === 'epoch-s'
    ? Math.floor(ms / 1000)
    : format === 'epoch-ms'
      ? ms
      : new Date(ms).toISOString();

/** Sets `path` in `record` to `value`, creating objects on the way (`[]`: a one-item array). */
function setAt(record, path, value) {
  let node = record;
  path.forEach((key, i) => {
    const last = i === path.length - 1;
    if (key === '[]') return;
    if (last || path[i + 1] === '[]') node[key] = path[i + 1] === '[]' ? [value] : value;
    else {
      if (!node[key] || typeof node[key] !== 'object') node[key] = {};
      node = node[key];
    }
  });
}

// ---------------------------------------------------------------- generic shapes
/** Identifier values of the records, by kind. */
function identities(next, kind, count) {
  const seen = new Set();
  const unique = (make) => {
    for (;;) {
      const value = make();
      const key = plain(value);
      if (!seen.has(key)) {
        seen.add(key);
        return value;
      }
    }
  };
  const base = 1_790_000_000_000_000_000n + BigInt(Math.floor(next() * 1e9));
  return Array.from({ length: count }, (_, i) => {
    switch (kind) {
      case 'readable':
        return unique(() => `${pick(next, WORD_A)}-${pick(next, WORD_B)}-${hexOf(next, 5)}`);
      case 'seq':
        return 1000 + i;
      case 'snowflake':
        return new LosslessNumber(
          String(base + BigInt(i) * 4_194_304n + BigInt(Math.floor(next() * 4_000_000))),
        );
      case 'uuid':
        return unique(() => uuid(next));
      case 'sha':
        return unique(() => hexOf(next, 40));
      case 'email':
        return unique(
          () =>
            `${pick(next, FIRST)}.${pick(next, LAST)}${next() < 0.5 ? '' : Math.floor(next() * 90)}@${pick(next, ['example.com', 'corp.example', 'mail.example.org'])}`,
        );
      default:
        throw new Error(`unknown identity kind ${kind}`);
    }
  });
}

const WRAPPERS = [['meta'], ['spec', 'ident']];

/**
 * A list from a spec: identity kind and depth, time format, position and order, state columns,
 * measures, free text, noise and envelope, keys named in `style`.
 */
function genericShape(spec) {
  const next = random(spec.seed);
  const { count, style } = spec;
  const key = (concept) => keyOf(style, concept);
  const wrapper = spec.depth === 0 ? [] : WRAPPERS[spec.depth - 1].map(key);
  const identity = [...wrapper, key(spec.idConcept)];
  let identityWith;
  let ids;
  let namespaces;
  if (spec.idKind === 'composite') {
    // Names repeat across namespaces: only the pair is unique.
    const spaces = ['prod', 'staging', 'dev', 'qa'].slice(0, 2 + Math.floor(next() * 3));
    const names = Array.from(
      { length: Math.ceil(count / spaces.length) },
      (_, j) => `${pick(next, WORD_B)}-${j}`,
    );
    const pairs = shuffle(
      next,
      spaces.flatMap((space) => names.map((name) => [space, name])),
    ).slice(0, count);
    ids = pairs.map((pair) => pair[1]);
    namespaces = pairs.map((pair) => pair[0]);
    identityWith = [...wrapper, key('ns')];
  } else ids = identities(next, spec.idKind, count);
  const statePaths = spec.states.map((state) => [
    ...(spec.statesIn ? [key('state')] : []),
    key(state.concept),
  ]);
  const stateColumns = spec.states.map((state) =>
    stateColumn(next, count, state.skew, VALUES[state.values]),
  );
  const timePath = spec.time ? [key('created')] : undefined;
  const times = spec.time
    ? timeColumn(
        next,
        count,
        Date.UTC(2026, 2, 1) + Math.floor(next() * 1e9),
        spec.time.step ?? 47_000,
        spec.time.order,
      )
    : [];
  const numericPaths = spec.numeric.map((concept) => [key(concept)]);
  const textPath = spec.text ? [key('message')] : undefined;
  const urlBase = `https://api.example.com/v2/${pick(next, WORD_A)}/`;
  const records = ids.map((id, i) => {
    const entries = [];
    entries.push([identity, id]);
    if (identityWith) entries.push([identityWith, namespaces[i]]);
    if (spec.noise.includes('etag')) entries.push([[key('etag')], hexOf(next, 8)]);
    statePaths.forEach((path, s) => {
      entries.push([path, stateColumns[s][i]]);
    });
    spec.numeric.forEach((concept, n) => {
      const value =
        concept === 'latency'
          ? Math.round(lognormal(next, 40, 0.8) * 100) / 100
          : concept === 'bytes'
            ? Math.round(lognormal(next, 18_000, 1.1))
            : Math.floor(lognormal(next, 3, 0.7));
      entries.push([numericPaths[n], value]);
    });
    if (textPath) entries.push([textPath, sentence(next)]);
    if (spec.noise.includes('constant')) {
      entries.push([[key('schema')], '2024-06']);
      entries.push([[key('owner')], 'platform']);
    }
    entries.push([
      [key('source')],
      `${pick(next, ['scheduler', 'api', 'import'])} ${pick(next, ['v1', 'v2'])}`,
    ]);
    if (spec.noise.includes('url')) entries.push([[key('url')], `${urlBase}${plain(id)}`]);
    if (spec.noise.includes('token'))
      entries.push([[key('token')], token(next, 96 + Math.floor(next() * 64))]);
    if (spec.noise.includes('parts')) {
      const parts = ['main', 'sidecar', 'init'].slice(0, 1 + Math.floor(next() * 3));
      entries.push([
        [key('parts')],
        parts.map((name) => ({
          [key('name')]: name,
          image: `registry.example.com/${pick(next, WORD_A)}:${1 + Math.floor(next() * 4)}.${Math.floor(next() * 10)}`,
          ports: [{ containerPort: 8000 + Math.floor(next() * 100) }],
        })),
      ]);
    }
    if (spec.noise.includes('bookkeeping')) {
      entries.push([
        [key('bookkeeping')],
        {
          'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} }, 'f:annotations': {} },
          'f:spec': {},
          'f:status': { 'f:conditions': {} },
        },
      ]);
    }
    if (timePath) {
      const at =
        spec.time.position === 'first'
          ? 0
          : spec.time.position === 'middle'
            ? Math.floor(entries.length / 2)
            : entries.length;
      entries.splice(at, 0, [timePath, formatTime(times[i], spec.time.format)]);
    }
    const record = {};
    for (const [path, value] of entries) setAt(record, path, value);
    return record;
  });
  const truth = {
    identity,
    identityWith,
    states: statePaths,
    time: timePath,
    textField: textPath,
    numeric: numericPaths,
    errorTarget: textPath ?? [key('source')],
    extraKey: key('error'),
  };
  return { ...envelope(spec.envelope, records, truth, next), indent: spec.indent };
}

/** The document around the records, and the paths adjusted to where the records sit. */
function envelope(kind, records, truth, next) {
  switch (kind) {
    case 'bare':
      return { root: records, listPath: [], truth };
    case 'items':
      return {
        root: { kind: 'List', items: records, metadata: { continue: '', remainingItemCount: 0 } },
        listPath: ['items'],
        truth,
      };
    case 'data-results':
      return {
        root: {
          data: { results: records, count: records.length },
          meta: {
            page: 1,
            per_page: records.length,
            next: null,
            generated_at: '2026-03-09T10:00:00Z',
          },
        },
        listPath: ['data', 'results'],
        truth,
      };
    case 'map': {
      const map = {};
      for (const record of records) {
        const id = fieldOf(record, truth.identity);
        map[truth.identityWith ? `${fieldOf(record, truth.identityWith)}/${id}` : id] = record;
      }
      return {
        root: { entries: map, updated: '2026-03-09T10:00:00Z' },
        listPath: ['entries'],
        truth,
      };
    }
    case 'hits': {
      // Documents indexed under their natural key: the key is the hit's `_id`, not in `_source`.
      const inSource = (path) => (path ? ['_source', ...path] : undefined);
      const hits = records.map((record) => {
        const id = plain(valuesAt(record, truth.identity)[0]);
        const source = structuredClone(record);
        deleteAt(source, truth.identity);
        return {
          _index: `records-2026.03`,
          _id: id,
          _score: Math.round((1 + next()) * 1000) / 1000,
          _source: source,
        };
      });
      return {
        root: {
          took: 17,
          timed_out: false,
          _shards: { total: 3, successful: 3, skipped: 0, failed: 0 },
          hits: { total: { value: hits.length, relation: 'eq' }, max_score: 2, hits },
        },
        listPath: ['hits', 'hits'],
        truth: {
          ...truth,
          identity: ['_id'],
          identityWith: inSource(truth.identityWith),
          states: truth.states.map(inSource),
          time: inSource(truth.time),
          textField: inSource(truth.textField),
          numeric: truth.numeric.map(inSource),
          errorTarget: inSource(truth.errorTarget),
        },
      };
    }
    default:
      throw new Error(`unknown envelope ${kind}`);
  }
}
function deleteAt(record, path) {
  const parent = path.slice(0, -1).reduce((node, key) => node?.[key], record);
  if (parent) delete parent[path[path.length - 1]];
  // An emptied wrapper goes too.
  if (path.length > 1 && parent && Object.keys(parent).length === 0)
    deleteAt(record, path.slice(0, -1));
}

const S = (concept, skew, values) => ({ concept, skew, values });
const GENERIC = [
  {
    name: 'services, snake_case, readable names',
    count: 300,
    style: 'snake',
    envelope: 'bare',
    idKind: 'readable',
    idConcept: 'service',
    depth: 0,
    time: { format: 'iso', order: 'asc', position: 'first' },
    states: [S('status', 'dominant', 'lifecycle'), S('tier', 'balanced', 'tier')],
    numeric: ['latency', 'bytes'],
    noise: ['constant', 'url', 'etag'],
    indent: 2,
  },
  {
    name: 'events, camelCase, sequential ids, items[]',
    count: 800,
    style: 'camel',
    envelope: 'items',
    idKind: 'seq',
    idConcept: 'number',
    depth: 0,
    time: { format: 'epoch-ms', order: 'desc', position: 'middle' },
    states: [S('kind', 'balanced', 'kind'), S('zone', 'tail', 'zone')],
    numeric: ['retries'],
    text: true,
    noise: ['parts'],
    indent: 0,
  },
  {
    name: 'objects, kebab-case, UUIDs one down',
    statesIn: true,
    count: 120,
    style: 'kebab',
    envelope: 'data-results',
    idKind: 'uuid',
    idConcept: 'key',
    depth: 1,
    time: { format: 'epoch-s', order: 'shuffled', position: 'last' },
    states: [S('status', 'dominant', 'health')],
    numeric: ['bytes'],
    noise: ['token', 'bookkeeping'],
    indent: 2,
  },
  {
    name: 'contacts, PascalCase, e-mail keys, map',
    count: 60,
    style: 'pascal',
    envelope: 'map',
    idKind: 'email',
    idConcept: 'contact',
    depth: 0,
    time: { format: 'iso', order: 'desc', position: 'middle' },
    states: [S('customer', 'tail', 'customer'), S('tier', 'balanced', 'tier')],
    numeric: ['latency'],
    text: true,
    noise: ['constant'],
    indent: 2,
  },
  {
    name: 'registros, Spanish keys, shas, search hits',
    count: 500,
    style: 'es',
    envelope: 'hits',
    idKind: 'sha',
    idConcept: 'ref',
    depth: 0,
    time: { format: 'iso', order: 'shuffled', position: 'first' },
    states: [S('status', 'dominant', 'lifecycleEs')],
    numeric: ['latency', 'retries'],
    text: true,
    noise: ['url'],
    indent: 0,
  },
  {
    name: 'hotes, French keys, names one down',
    count: 200,
    style: 'fr',
    envelope: 'bare',
    idKind: 'readable',
    idConcept: 'host',
    depth: 1,
    time: { format: 'epoch-s', order: 'asc', position: 'middle' },
    states: [S('status', 'balanced', 'lifecycleFr'), S('level', 'balanced', 'level')],
    numeric: ['bytes'],
    noise: ['bookkeeping', 'parts'],
    indent: 2,
  },
  {
    name: 'Ereignisse, German keys, snowflake ids',
    count: 2000,
    style: 'de',
    envelope: 'items',
    idKind: 'snowflake',
    idConcept: 'number',
    depth: 0,
    time: { format: 'epoch-ms', order: 'asc', position: 'first', step: 1_900 },
    states: [
      S('status', 'dominant', 'lifecycleDe'),
      S('zone', 'tail', 'zone'),
      S('kind', 'balanced', 'kind'),
    ],
    numeric: ['latency', 'bytes', 'retries'],
    noise: ['token'],
    indent: 0,
  },
  {
    name: 'workloads, abbreviated keys, namespace+name',
    count: 150,
    style: 'abbrev',
    envelope: 'bare',
    idKind: 'composite',
    idConcept: 'name',
    depth: 1,
    time: { format: 'iso', order: 'asc', position: 'last' },
    states: [S('status', 'balanced', 'health')],
    numeric: ['retries'],
    noise: ['parts', 'constant'],
    indent: 2,
  },
  {
    name: 'accounts, camelCase, handles two down',
    count: 40,
    style: 'camel',
    envelope: 'data-results',
    idKind: 'readable',
    idConcept: 'handle',
    depth: 2,
    states: [S('tier', 'dominant', 'tier')],
    numeric: ['bytes'],
    text: true,
    noise: ['url', 'etag'],
    indent: 2,
  },
  {
    name: 'jobs, snake_case, UUID refs, long tail',
    count: 1200,
    style: 'snake',
    envelope: 'bare',
    idKind: 'uuid',
    idConcept: 'ref',
    depth: 0,
    time: { format: 'epoch-s', order: 'desc', position: 'middle' },
    states: [S('level', 'dominant', 'level'), S('customer', 'tail', 'customer')],
    numeric: ['latency'],
    text: true,
    noise: ['token', 'constant'],
    indent: 0,
  },
  {
    name: 'members, kebab-case, e-mails one down',
    count: 20,
    style: 'kebab',
    envelope: 'items',
    idKind: 'email',
    idConcept: 'contact',
    depth: 1,
    time: { format: 'epoch-ms', order: 'shuffled', position: 'middle' },
    states: [S('kind', 'balanced', 'kind')],
    numeric: ['retries', 'bytes'],
    noise: ['bookkeeping'],
    indent: 2,
  },
  {
    name: 'Services, PascalCase, search hits',
    statesIn: true,
    count: 400,
    style: 'pascal',
    envelope: 'hits',
    idKind: 'readable',
    idConcept: 'service',
    depth: 0,
    time: { format: 'iso', order: 'asc', position: 'last' },
    states: [S('status', 'dominant', 'health'), S('tier', 'balanced', 'tier')],
    numeric: ['latency'],
    noise: ['parts'],
    indent: 2,
  },
  {
    name: 'claves, Spanish keys, UUID map',
    count: 90,
    style: 'es',
    envelope: 'map',
    idKind: 'uuid',
    idConcept: 'key',
    depth: 1,
    time: { format: 'epoch-s', order: 'asc', position: 'first' },
    states: [S('status', 'balanced', 'lifecycleEs')],
    numeric: ['bytes'],
    text: true,
    noise: [],
    indent: 2,
  },
  {
    name: 'Commits, German keys, shas, results',
    count: 250,
    style: 'de',
    envelope: 'data-results',
    idKind: 'sha',
    idConcept: 'ref',
    depth: 0,
    time: { format: 'iso', order: 'desc', position: 'middle' },
    states: [S('status', 'balanced', 'lifecycleDe'), S('zone', 'tail', 'zone')],
    numeric: ['latency'],
    noise: ['url', 'bookkeeping'],
    indent: 2,
  },
  {
    name: 'taches, French keys, espace+nom',
    count: 600,
    style: 'fr',
    envelope: 'items',
    idKind: 'composite',
    idConcept: 'name',
    depth: 0,
    time: { format: 'epoch-ms', order: 'desc', position: 'last' },
    states: [S('status', 'dominant', 'lifecycleFr')],
    numeric: ['bytes', 'retries'],
    noise: ['constant', 'token'],
    indent: 0,
  },
  {
    name: 'logs, abbreviated keys, snowflakes one down',
    count: 1000,
    style: 'abbrev',
    envelope: 'data-results',
    idKind: 'snowflake',
    idConcept: 'number',
    depth: 1,
    time: { format: 'iso', order: 'shuffled', position: 'first', step: 3_100 },
    states: [S('level', 'balanced', 'level'), S('customer', 'tail', 'customer')],
    numeric: ['latency'],
    text: true,
    noise: [],
    indent: 0,
  },
  {
    name: 'tickets, snake_case, sequential ids, hits',
    count: 75,
    style: 'snake',
    envelope: 'hits',
    idKind: 'seq',
    idConcept: 'number',
    depth: 0,
    time: { format: 'epoch-s', order: 'asc', position: 'middle' },
    states: [S('kind', 'balanced', 'kind')],
    numeric: ['bytes'],
    noise: ['parts', 'url'],
    indent: 2,
  },
  {
    name: 'builds, camelCase, shas two down',
    statesIn: true,
    count: 350,
    style: 'camel',
    envelope: 'bare',
    idKind: 'sha',
    idConcept: 'ref',
    depth: 2,
    time: { format: 'epoch-ms', order: 'asc', position: 'middle' },
    states: [
      S('status', 'dominant', 'health'),
      S('tier', 'balanced', 'tier'),
      S('zone', 'tail', 'zone'),
    ],
    numeric: ['latency', 'retries'],
    text: true,
    noise: [],
    indent: 2,
  },
  {
    name: 'plans, kebab-case, readable map',
    count: 30,
    style: 'kebab',
    envelope: 'map',
    idKind: 'readable',
    idConcept: 'service',
    depth: 0,
    states: [S('tier', 'balanced', 'tier')],
    numeric: ['retries'],
    noise: ['etag', 'constant'],
    indent: 2,
  },
  {
    name: 'Records, PascalCase, numbers one down',
    count: 1500,
    style: 'pascal',
    envelope: 'items',
    idKind: 'seq',
    idConcept: 'number',
    depth: 1,
    time: { format: 'iso', order: 'asc', position: 'middle', step: 2_000 },
    states: [S('status', 'dominant', 'lifecycle')],
    numeric: ['bytes'],
    text: true,
    noise: ['bookkeeping', 'token'],
    indent: 0,
  },
  {
    name: 'Kontakte, German keys, e-mails',
    statesIn: true,
    count: 100,
    style: 'de',
    envelope: 'bare',
    idKind: 'email',
    idConcept: 'contact',
    depth: 0,
    time: { format: 'epoch-s', order: 'shuffled', position: 'last' },
    states: [S('status', 'dominant', 'lifecycleDe'), S('kind', 'balanced', 'kind')],
    numeric: ['latency'],
    noise: ['parts'],
    indent: 2,
  },
  {
    name: 'servicios, Spanish keys, names two down',
    count: 700,
    style: 'es',
    envelope: 'items',
    idKind: 'readable',
    idConcept: 'service',
    depth: 2,
    time: { format: 'epoch-ms', order: 'desc', position: 'first' },
    states: [S('customer', 'tail', 'customer')],
    numeric: ['retries', 'latency'],
    text: true,
    noise: ['url', 'etag'],
    indent: 2,
  },
  {
    name: 'journaux, French keys, sequential ids',
    count: 50,
    style: 'fr',
    envelope: 'data-results',
    idKind: 'seq',
    idConcept: 'number',
    depth: 0,
    time: { format: 'iso', order: 'asc', position: 'first' },
    states: [S('level', 'dominant', 'level')],
    numeric: ['bytes'],
    noise: ['constant'],
    indent: 0,
  },
].map((spec, i) => ({ ...spec, seed: 1000 + i, text: spec.text ?? false }));

// ---------------------------------------------------------------- realistic shapes
const iso = (ms) => new Date(ms).toISOString();
const isoSeconds = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Zipkin v2 spans: a client and a server span share an `id`; ports are ephemeral. */
function zipkinSpans() {
  const next = random(2001);
  const services = ['frontend', 'orders', 'payments', 'inventory', 'shipping', 'users'];
  const spans = [];
  let clock = Date.UTC(2026, 2, 4, 9) * 1000;
  let port = 40_000;
  const endpoint = (service) => ({
    serviceName: service,
    ipv4: `10.1.${services.indexOf(service)}.${10 + Math.floor(next() * 200)}`,
    port: port++,
  });
  while (spans.length < 400) {
    const traceId = hexOf(next, 16);
    const rootId = hexOf(next, 16);
    clock += Math.floor(next() * 2_000_000);
    const rootDuration = Math.round(lognormal(next, 80_000, 0.6));
    const path = `/api/${pick(next, ['orders', 'cart', 'checkout', 'profile'])}`;
    spans.push({
      traceId,
      id: rootId,
      kind: 'SERVER',
      name: `get ${path}`,
      timestamp: clock,
      duration: rootDuration,
      localEndpoint: endpoint('frontend'),
      remoteEndpoint: {
        ipv4: `192.168.${Math.floor(next() * 255)}.${Math.floor(next() * 255)}`,
        port: port++,
      },
      tags: { 'http.method': 'GET', 'http.path': path, 'http.status_code': '200' },
    });
    for (let c = 0; c < 1 + Math.floor(next() * 3) && spans.length < 399; c++) {
      const id = hexOf(next, 16);
      const callee = pick(next, services.slice(1));
      const start = clock + Math.floor(next() * 5000);
      const duration = Math.round(lognormal(next, 20_000, 0.7));
      const name = `${pick(next, ['get', 'post'])} /${callee}/${pick(next, ['v1', 'v2'])}`;
      const tags = {
        'http.method': name.startsWith('get') ? 'GET' : 'POST',
        'http.path': name.split(' ')[1],
        'http.status_code': '200',
      };
      spans.push({
        traceId,
        parentId: rootId,
        id,
        kind: 'CLIENT',
        name,
        timestamp: start,
        duration,
        localEndpoint: endpoint('frontend'),
        remoteEndpoint: { serviceName: callee, port: 8080 },
        tags,
      });
      spans.push({
        traceId,
        parentId: rootId,
        id,
        kind: 'SERVER',
        name,
        timestamp: start + 300,
        duration: duration - 600,
        localEndpoint: endpoint(callee),
        remoteEndpoint: { ipv4: '10.1.0.7', port: port++ },
        tags,
        shared: true,
      });
    }
  }
  return {
    name: 'Zipkin spans (client and server share an id)',
    root: spans,
    listPath: [],
    indent: 0,
    truth: {
      identity: ['id'],
      states: [['kind'], ['localEndpoint', 'serviceName']],
      time: ['timestamp'],
      numeric: [['duration']],
      errorTarget: ['name'],
      extraKey: 'error',
    },
  };
}

/** An Elasticsearch search response of application logs (`hits.hits[]._source`). */
function searchResponse() {
  const next = random(2002);
  const levels = stateColumn(next, 300, 'dominant', ['INFO', 'DEBUG', 'WARN']);
  const services = stateColumn(next, 300, 'balanced', ['checkout', 'cart', 'search', 'accounts']);
  const times = timeColumn(next, 300, Date.UTC(2026, 2, 5, 14), 1_300, 'desc');
  const hits = times.map((ms, i) => ({
    _index: `.ds-logs-app-default-2026.03.05-000012`,
    _id: token(next, 20),
    _score: null,
    _source: {
      '@timestamp': iso(ms),
      log: { level: levels[i], logger: `com.example.${services[i]}.Handler` },
      service: { name: services[i], version: '4.12.0', environment: 'production' },
      host: {
        name: `ip-10-0-${Math.floor(next() * 8)}-${Math.floor(next() * 250)}`,
        architecture: 'x86_64',
      },
      http: { request: { method: pick(next, ['GET', 'POST']) }, response: { status_code: 200 } },
      event: { duration: Math.round(lognormal(next, 3_500_000, 0.9)), dataset: 'app.log' },
      trace: { id: hexOf(next, 32) },
      message: sentence(next),
    },
    sort: [ms, i],
  }));
  return {
    name: 'Elasticsearch search response (logs)',
    root: {
      took: 41,
      timed_out: false,
      _shards: { total: 6, successful: 6, skipped: 0, failed: 0 },
      hits: { total: { value: 10000, relation: 'gte' }, max_score: null, hits },
    },
    listPath: ['hits', 'hits'],
    indent: 2,
    truth: {
      identity: ['_id'],
      states: [
        ['_source', 'log', 'level'],
        ['_source', 'service', 'name'],
      ],
      time: ['_source', '@timestamp'],
      textField: ['_source', 'message'],
      numeric: [['_source', 'event', 'duration']],
      errorTarget: ['_source', 'message'],
      extraKey: 'error',
    },
  };
}

/** A Kubernetes server-side Table of pods: `rows[].cells` beside `rows[].object`. */
function serverSideTable() {
  const next = random(2003);
  const count = 150;
  const phases = stateColumn(next, count, 'dominant', ['Running', 'Pending', 'Succeeded']);
  const nodes = stateColumn(next, count, 'balanced', ['node-a', 'node-b', 'node-c', 'node-d']);
  const times = timeColumn(next, count, Date.UTC(2026, 1, 20), 600_000, 'asc');
  const rows = times.map((ms, i) => {
    const name = `${pick(next, WORD_A)}-${hexOf(next, 9)}-${hexOf(next, 5)}`;
    const restarts = Math.floor(lognormal(next, 1, 1));
    return {
      cells: [
        name,
        phases[i] === 'Running' ? '1/1' : '0/1',
        phases[i],
        restarts,
        `${1 + Math.floor(next() * 20)}d`,
        `10.42.${Math.floor(next() * 4)}.${Math.floor(next() * 250)}`,
        nodes[i],
      ],
      object: {
        kind: 'Pod',
        apiVersion: 'v1',
        metadata: {
          name,
          namespace: 'apps',
          uid: uuid(next),
          resourceVersion: String(100_000 + Math.floor(next() * 900_000)),
          creationTimestamp: isoSeconds(ms),
          labels: { app: name.split('-')[0], 'pod-template-hash': hexOf(next, 10) },
          managedFields: [
            {
              manager: 'kube-controller-manager',
              operation: 'Update',
              apiVersion: 'v1',
              time: isoSeconds(ms),
              fieldsType: 'FieldsV1',
              fieldsV1: {
                'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} }, 'f:ownerReferences': {} },
                'f:spec': { 'f:containers': {} },
              },
            },
            {
              manager: 'kubelet',
              operation: 'Update',
              apiVersion: 'v1',
              time: isoSeconds(ms + 4000),
              fieldsType: 'FieldsV1',
              fieldsV1: { 'f:status': { 'f:conditions': {}, 'f:podIP': {} } },
              subresource: 'status',
            },
          ],
        },
        spec: { nodeName: nodes[i], restartPolicy: 'Always', serviceAccountName: 'default' },
        status: {
          phase: phases[i],
          podIP: `10.42.${Math.floor(next() * 4)}.${Math.floor(next() * 250)}`,
          startTime: isoSeconds(ms + 2000),
          qosClass: 'BestEffort',
        },
      },
    };
  });
  return {
    name: 'Kubernetes server-side Table (rows[].cells + object)',
    root: {
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: '998877' },
      columnDefinitions: ['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node'].map(
        (name) => ({
          name,
          type: name === 'Restarts' ? 'integer' : 'string',
          format: name === 'Name' ? 'name' : '',
          description: `${name} of the pod`,
          priority: 0,
        }),
      ),
      rows,
    },
    listPath: ['rows'],
    indent: 2,
    truth: {
      identity: ['object', 'metadata', 'name'],
      states: [
        ['object', 'status', 'phase'],
        ['object', 'spec', 'nodeName'],
      ],
      time: ['object', 'metadata', 'creationTimestamp'],
      numeric: [],
      errorTarget: ['object', 'metadata', 'labels', 'app'],
      extraKey: 'error',
    },
  };
}

/** An IAM-like dump: policies, each with a document of many statements (count policies). */
function iamDump() {
  const next = random(2004);
  const count = 80;
  const paths = stateColumn(next, count, 'balanced', [
    '/',
    '/service-role/',
    '/team/',
    '/boundary/',
  ]);
  const versions = stateColumn(next, count, 'dominant', ['v1', 'v2', 'v3']);
  const times = timeColumn(next, count, Date.UTC(2024, 0, 1), 3 * 86_400_000, 'shuffled');
  const actions = [
    's3:GetObject',
    's3:PutObject',
    'dynamodb:Query',
    'sqs:SendMessage',
    'logs:PutLogEvents',
    'kms:Decrypt',
    'ec2:DescribeInstances',
    'sts:AssumeRole',
  ];
  const Policies = times.map((ms, i) => {
    const PolicyName = `${pick(next, WORD_A)}-${pick(next, WORD_B)}-${pick(next, ['read', 'write', 'admin', 'deploy'])}-${hexOf(next, 4)}`;
    return {
      PolicyName,
      PolicyId: `ANPA${token(next, 17).toUpperCase().replace(/[-_]/g, 'Q')}`,
      Arn: `arn:aws:iam::123456789012:policy${paths[i]}${PolicyName}`,
      Path: paths[i],
      DefaultVersionId: versions[i],
      AttachmentCount: Math.floor(lognormal(next, 3, 0.8)),
      PermissionsBoundaryUsageCount: 0,
      IsAttachable: true,
      Description: `Grants ${pick(next, WORD_A)} access for ${pick(next, WORD_B)} workloads`,
      CreateDate: isoSeconds(ms - 86_400_000 * 30).replace('Z', '+00:00'),
      UpdateDate: isoSeconds(ms).replace('Z', '+00:00'),
      PolicyVersionList: [
        {
          Document: {
            Version: '2012-10-17',
            Statement: Array.from({ length: 2 + Math.floor(next() * 10) }, (_, s) => ({
              Sid: `Stmt${s}${hexOf(next, 6)}`,
              Effect: next() < 0.9 ? 'Allow' : 'Deny',
              Action: shuffle(next, actions).slice(0, 1 + Math.floor(next() * 4)),
              Resource: [`arn:aws:s3:::${pick(next, WORD_A)}-bucket/*`],
            })),
          },
          VersionId: versions[i],
          IsDefaultVersion: true,
          CreateDate: isoSeconds(ms).replace('Z', '+00:00'),
        },
      ],
    };
  });
  return {
    name: 'IAM-like dump (policies with statements)',
    root: { Policies, IsTruncated: false },
    listPath: ['Policies'],
    indent: 4,
    truth: {
      identity: ['PolicyName'],
      states: [['Path'], ['DefaultVersionId']],
      time: ['UpdateDate'],
      textField: ['Description'],
      numeric: [['AttachmentCount']],
      errorTarget: ['Description'],
      extraKey: 'Error',
    },
  };
}

/** A Terraform-plan-like document: `resource_changes[]` with `change.actions`. */
function terraformPlan() {
  const next = random(2005);
  const count = 60;
  const types = stateColumn(next, count, 'tail', [
    'aws_instance',
    'aws_security_group',
    'aws_iam_role',
    'aws_s3_bucket',
    'aws_route53_record',
    'aws_lambda_function',
    'aws_sqs_queue',
    'aws_db_instance',
  ]);
  const actions = stateColumn(next, count, 'dominant', ['no-op', 'update', 'create']);
  const resource_changes = types.map((type, i) => {
    // Names repeat across modules and counts, as in real plans; the address is unique.
    const name = pick(next, WORD_A);
    const after = {
      arn: `arn:aws:${type.split('_')[1]}:us-east-1:123456789012:${name}`,
      id: `${type.split('_')[1]}-${hexOf(next, 12)}`,
      tags: { Name: `${name}-${pick(next, ['prod', 'shared'])}`, Team: 'infra' },
      tags_all: { Name: name, Team: 'infra', ManagedBy: 'terraform' },
    };
    return {
      address: `module.${pick(next, ['core', 'edge', 'data'])}.${type}.${name}[${i}]`,
      module_address: 'module.core',
      mode: 'managed',
      type,
      name,
      provider_name: 'registry.terraform.io/hashicorp/aws',
      change: {
        actions: [actions[i]],
        before: actions[i] === 'create' ? null : { ...after },
        after,
        after_unknown: {
          arn: actions[i] === 'create',
          id: actions[i] === 'create',
          tags: {},
          tags_all: {},
        },
        before_sensitive: {},
        after_sensitive: { tags: {}, tags_all: {} },
      },
    };
  });
  return {
    name: 'Terraform plan (resource_changes[])',
    root: {
      format_version: '1.2',
      terraform_version: '1.7.5',
      planned_values: { root_module: { child_modules: [] } },
      resource_changes,
      configuration: {
        provider_config: { aws: { name: 'aws', full_name: 'registry.terraform.io/hashicorp/aws' } },
      },
    },
    listPath: ['resource_changes'],
    indent: 2,
    truth: {
      identity: ['address'],
      states: [['type'], ['change', 'actions', '[]']],
      numeric: [],
      errorTarget: ['change', 'after', 'tags', 'Name'],
      extraKey: 'error',
    },
  };
}

/** A commit list as a code host's API returns it, newest first. */
function commitList() {
  const next = random(2006);
  const count = 100;
  const logins = stateColumn(
    next,
    count,
    'tail',
    FIRST.slice(0, 12).map((name) => `${name}-dev`),
  );
  const reasons = stateColumn(next, count, 'dominant', ['unsigned', 'valid', 'unknown_key']);
  const times = timeColumn(next, count, Date.UTC(2026, 1, 1), 5_400_000, 'desc');
  const shas = identities(next, 'sha', count + 1);
  const commits = times.map((ms, i) => {
    const sha = shas[i];
    const login = logins[i];
    const person = {
      name: capital(login.split('-')[0]),
      email: `${login}@users.noreply.example.com`,
      date: isoSeconds(ms),
    };
    const user = {
      login,
      id: 1000 + FIRST.indexOf(login.split('-')[0]),
      node_id: `MDQ6VXNlcj${Buffer.from(login).toString('hex').slice(0, 8)}`,
      avatar_url: `https://avatars.example.com/u/${login}?v=4`,
      url: `https://api.example.com/users/${login}`,
      html_url: `https://code.example.com/${login}`,
      type: 'User',
      site_admin: false,
    };
    return {
      sha,
      node_id: `C_kwDO${token(next, 30)}`,
      commit: {
        author: person,
        committer: { ...person, name: 'Code Host', email: 'noreply@example.com' },
        message: `${pick(next, ['fix', 'feat', 'chore', 'docs'])}: ${sentence(next).toLowerCase()}`,
        tree: {
          sha: hexOf(next, 40),
          url: `https://api.example.com/repos/acme/web/git/trees/${hexOf(next, 40)}`,
        },
        url: `https://api.example.com/repos/acme/web/git/commits/${sha}`,
        comment_count: next() < 0.85 ? 0 : 1 + Math.floor(next() * 3),
        verification: {
          verified: reasons[i] === 'valid',
          reason: reasons[i],
          signature: null,
          payload: null,
          verified_at: null,
        },
      },
      url: `https://api.example.com/repos/acme/web/commits/${sha}`,
      html_url: `https://code.example.com/acme/web/commit/${sha}`,
      comments_url: `https://api.example.com/repos/acme/web/commits/${sha}/comments`,
      author: user,
      committer: { ...user, login: 'web-flow', id: 19864447 },
      parents: [
        {
          sha: shas[i + 1],
          url: `https://api.example.com/repos/acme/web/commits/${shas[i + 1]}`,
          html_url: `https://code.example.com/acme/web/commit/${shas[i + 1]}`,
        },
      ],
    };
  });
  return {
    name: 'commit list (sha, commit.author.date, commit.message)',
    root: commits,
    listPath: [],
    indent: 2,
    truth: {
      identity: ['sha'],
      states: [
        ['commit', 'verification', 'reason'],
        ['author', 'login'],
      ],
      time: ['commit', 'author', 'date'],
      textField: ['commit', 'message'],
      numeric: [['commit', 'comment_count']],
      errorTarget: ['commit', 'message'],
      extraKey: 'error',
    },
  };
}

/** Workflow runs of a CI service, newest first, with the repository repeated in every run. */
function workflowRuns() {
  const next = random(2007);
  const count = 250;
  const conclusions = stateColumn(next, count, 'dominant', ['success', 'skipped', 'cancelled']);
  const events = stateColumn(next, count, 'balanced', [
    'push',
    'pull_request',
    'schedule',
    'workflow_dispatch',
  ]);
  const names = stateColumn(next, count, 'balanced', ['CI', 'Deploy', 'CodeQL']);
  const times = timeColumn(next, count, Date.UTC(2026, 2, 1), 1_700_000, 'desc');
  const repository = {
    id: 512_345_678,
    node_id: 'R_kgDOHp0aBg',
    name: 'web',
    full_name: 'acme/web',
    private: false,
    owner: { login: 'acme', id: 4_200_001, type: 'Organization', site_admin: false },
    html_url: 'https://code.example.com/acme/web',
    description: 'The web storefront',
    fork: false,
    url: 'https://api.example.com/repos/acme/web',
  };
  const workflow_runs = times.map((ms, i) => {
    const id = 9_100_000_000 + (count - i) * 57 + Math.floor(next() * 50);
    const sha = hexOf(next, 40);
    const title = sentence(next);
    return {
      id,
      name: names[i],
      node_id: `WFR_kwLO${token(next, 16)}`,
      head_branch: pick(next, ['main', 'main', 'release/4.12', `feature/${pick(next, WORD_A)}`]),
      head_sha: sha,
      path: `.github/workflows/${names[i].toLowerCase()}.yml`,
      display_title: title,
      run_number: 5000 + count - i,
      event: events[i],
      status: 'completed',
      conclusion: conclusions[i],
      workflow_id: 61_000_000 + ['CI', 'Deploy', 'CodeQL'].indexOf(names[i]),
      url: `https://api.example.com/repos/acme/web/actions/runs/${id}`,
      html_url: `https://code.example.com/acme/web/actions/runs/${id}`,
      created_at: isoSeconds(ms),
      updated_at: isoSeconds(ms + 240_000),
      run_attempt: next() < 0.9 ? 1 : 2,
      run_started_at: isoSeconds(ms),
      jobs_url: `https://api.example.com/repos/acme/web/actions/runs/${id}/jobs`,
      logs_url: `https://api.example.com/repos/acme/web/actions/runs/${id}/logs`,
      head_commit: {
        id: sha,
        tree_id: hexOf(next, 40),
        message: title,
        timestamp: isoSeconds(ms - 60_000),
        author: { name: capital(pick(next, FIRST)), email: 'dev@example.com' },
      },
      repository,
    };
  });
  return {
    name: 'CI workflow runs',
    root: { total_count: count, workflow_runs },
    listPath: ['workflow_runs'],
    indent: 2,
    truth: {
      identity: ['id'],
      states: [['conclusion'], ['event'], ['name']],
      time: ['created_at'],
      textField: ['display_title'],
      numeric: [['run_attempt']],
      errorTarget: ['display_title'],
      extraKey: 'error',
    },
  };
}

/**
 * A package registry's versions of one package, newest first (crates.io, RubyGems): each named
 * by its dotted version, beside a database id, a checksum and a download path.
 */
function packageVersions() {
  const next = random(2008);
  const count = 140;
  const times = timeColumn(next, count, Date.UTC(2019, 0, 1), 900_000_000, 'desc');
  const licenses = stateColumn(next, count, 'dominant', ['MIT OR Apache-2.0', 'MIT', 'Apache-2.0']);
  const versions = [];
  for (let major = 0, minor = 1, patch = 0; versions.length < count; ) {
    versions.push(`${major}.${minor}.${patch}`);
    const roll = next();
    if (roll < 0.05) [major, minor, patch] = [major + 1, 0, 0];
    else if (roll < 0.3) [minor, patch] = [minor + 1, 0];
    else patch++;
  }
  versions.reverse();
  const records = times.map((ms, i) => {
    const num = versions[i];
    return {
      id: 1_200_000 - i * 4_100 - Math.floor(next() * 4_000),
      crate: 'regex',
      num,
      dl_path: `/api/v1/crates/regex/${num}/download`,
      readme_path: `/api/v1/crates/regex/${num}/readme`,
      updated_at: iso(ms + 3_600_000),
      created_at: iso(ms),
      downloads: Math.round(lognormal(next, 400_000, 1.4)),
      features: {},
      yanked: next() < 0.03,
      license: licenses[i],
      links: { dependencies: `/api/v1/crates/regex/${num}/dependencies` },
      crate_size: Math.round(lognormal(next, 250_000, 0.3)),
      published_by: { id: 189, login: 'burntsushi', name: 'Andrew Gallant' },
      checksum: hexOf(next, 64),
      rust_version: pick(next, [null, '1.60', '1.65']),
    };
  });
  return {
    name: 'package versions (dotted version, id, checksum)',
    root: { versions: records, meta: { total: count } },
    listPath: ['versions'],
    indent: 0,
    truth: {
      identity: ['num'],
      states: [['license'], ['yanked']],
      time: ['created_at'],
      numeric: [['downloads']],
      errorTarget: ['license'],
      extraKey: 'error',
    },
  };
}

/** An hourly weather forecast: records named by nothing but their hour, all else measures. */
function hourlyForecast() {
  const next = random(2009);
  const count = 220;
  const start = Date.UTC(2026, 5, 1) / 1000;
  const conditions = stateColumn(next, count, 'balanced', ['Clear', 'Partly Cloudy', 'Cloudy']);
  const pressure = () => (1008 + Math.round(next() * 120) / 10).toFixed(1);
  const hourly = Array.from({ length: count }, (_, i) => {
    const p = pressure();
    return {
      time: start + i * 3600,
      conditions: conditions[i],
      icon: `${conditions[i].toLowerCase().replace(' ', '-')}-${i % 24 < 7 || i % 24 > 19 ? 'night' : 'day'}`,
      air_temperature: Number((14 + 8 * Math.sin((i % 24) / 4) + next() * 2).toFixed(1)),
      sea_level_pressure: Number(p),
      station_pressure: Number((Number(p) - 12.3).toFixed(1)),
      relative_humidity: 40 + Math.floor(next() * 50),
      precip_probability: pick(next, [0, 0, 0, 5, 10, 20]),
      wind_avg: Number((next() * 9).toFixed(1)),
      wind_direction: Math.floor(next() * 360),
      local_hour: i % 24,
      local_day: 1 + Math.floor(i / 24),
    };
  });
  return {
    name: 'hourly forecast (named by time, measures)',
    root: { latitude: 47.6, longitude: -122.3, forecast: { hourly } },
    listPath: ['forecast', 'hourly'],
    indent: 2,
    truth: {
      identity: ['time'],
      states: [['conditions']],
      time: ['time'],
      numeric: [['air_temperature']],
      errorTarget: ['conditions'],
      extraKey: 'error',
    },
  };
}

/**
 * Pods whose conditions are named by `type` and whose labels come as `[{key, value}]` pairs
 * (keyed items: their states are fields of the pod told by name).
 */
function keyedPods() {
  const next = random(2011);
  const count = 160;
  const phases = stateColumn(next, count, 'dominant', ['Running', 'Pending', 'Failed']);
  const tiers = stateColumn(next, count, 'balanced', ['web', 'api', 'batch']);
  const times = timeColumn(next, count, Date.UTC(2026, 2, 3), 420_000, 'shuffled');
  const types = ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];
  const items = times.map((ms, i) => {
    const ready = phases[i] === 'Running' && next() > 0.08 ? 'True' : 'False';
    const conditions = types.map((type) => ({
      type,
      status: type === 'Ready' || type === 'ContainersReady' ? ready : 'True',
      lastTransitionTime: isoSeconds(ms + 1000 * types.indexOf(type)),
    }));
    // Each pod lists its conditions in an order of its own.
    if (next() < 0.5) conditions.reverse();
    return {
      metadata: {
        name: `${tiers[i]}-${hexOf(next, 9)}-${hexOf(next, 5)}`,
        uid: uuid(next),
        creationTimestamp: isoSeconds(ms),
      },
      labels: [
        { key: 'tier', value: tiers[i] },
        { key: 'team', value: pick(next, ['core', 'payments', 'search']) },
      ],
      status: {
        phase: phases[i],
        restartCount: Math.floor(lognormal(next, 0.5, 1)),
        conditions,
      },
    };
  });
  return {
    name: 'pods with keyed conditions and label pairs',
    root: { kind: 'List', items },
    listPath: ['items'],
    indent: 2,
    truth: {
      identity: ['metadata', 'name'],
      states: [
        ['status', 'phase'],
        ['status', 'conditions', { key: 'type', value: 'Ready' }, 'status'],
        ['labels', { key: 'key', value: 'tier' }, 'value'],
      ],
      time: ['metadata', 'creationTimestamp'],
      numeric: [['status', 'restartCount']],
      errorTarget: ['status', 'phase'],
      extraKey: 'error',
    },
  };
}

const REALISTIC = [
  keyedPods,
  zipkinSpans,
  searchResponse,
  serverSideTable,
  iamDump,
  terraformPlan,
  commitList,
  workflowRuns,
  packageVersions,
  hourlyForecast,
];

// ---------------------------------------------------------------- planting
/** The kinds of planted anomaly, each a change to one record. */
export const ANOMALY_KINDS = ['rare state', 'extra error key', 'numeric outlier', 'error word'];

/** Plants `kind` in `record`, or returns false when the shape has no field for it. */
function plantIn(records, index, kind, truth, depth) {
  const record = records[index];
  switch (kind) {
    case 'rare state': {
      const path = truth.states[0];
      if (!path) return false;
      const values = records.map((r) => valuesAt(r, path)[0]);
      const taken = new Set(values.map(plain));
      setAt(
        record,
        path,
        typeof values[0] === 'number' ? 599 : RARE.find((value) => !taken.has(value)),
      );
      return true;
    }
    case 'extra error key':
      record[truth.extraKey] =
        'upstream request to ledger timed out after 30000 ms; retries exhausted';
      return true;
    case 'numeric outlier': {
      const path = truth.numeric[0];
      if (!path) return false;
      const values = records.map((r) => Number(valuesAt(r, path)[0])).sort((a, b) => a - b);
      const median = Math.max(1, values[Math.floor((values.length - 1) / 2)]);
      const integral = values.every(Number.isInteger);
      setAt(record, path, integral ? Math.round(median * 50) : Math.round(median * 5000) / 100);
      return true;
    }
    case 'error word': {
      const path = truth.errorTarget;
      const word =
        depth < 0.5
          ? 'dial tcp 10.2.0.14:5432: connect: connection refused'
          : 'java.lang.OutOfMemoryError: Java heap space';
      const before = valuesAt(record, path)[0];
      setAt(
        record,
        path,
        typeof before === 'string' && before.length > 40
          ? `${before.slice(0, 30)} ${word}`
          : `${before ?? ''} ${word}`.trim(),
      );
      return true;
    }
    default:
      throw new Error(`unknown anomaly ${kind}`);
  }
}

// ---------------------------------------------------------------- the lists
function builders() {
  return [
    ...GENERIC.map((spec) => () => ({ name: spec.name, ...genericShape(spec) })),
    ...REALISTIC,
  ];
}

/**
 * The generated lists with their ground truth: `{ name, text, records, listPath, identity,
 * identityWith?, states, time, textField, numeric, planted? }` (paths as arrays of keys;
 * `identityWith`: the second column of a composite key). With `plant`, each list carries one
 * anomaly of `plant.kind` at `plant.depth` of the list (lists without a field for it are left
 * out); `planted` is its record's index.
 */
export function generatedLists(plant) {
  const lists = [];
  for (const build of builders()) {
    const shape = build();
    let planted;
    if (plant) {
      const records = recordsAt(shape.root, shape.listPath);
      planted = Math.min(records.length - 1, Math.floor(records.length * plant.depth));
      if (!plantIn(records, planted, plant.kind, shape.truth, plant.depth)) continue;
    }
    const text = serialize(shape.root, shape.indent);
    const { errorTarget, extraKey, ...truth } = shape.truth;
    lists.push({
      name: shape.name,
      source: 'generated',
      text,
      records: recordsAt(parse(text), shape.listPath),
      listPath: shape.listPath,
      ...truth,
      ...(plant ? { planted, anomaly: plant.kind } : {}),
    });
  }
  return lists;
}
