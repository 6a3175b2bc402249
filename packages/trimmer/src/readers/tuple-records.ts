import { childCount } from '../json/child-count.js';
import {
  type JsonInventory,
  NODE_ARRAY,
  NODE_OBJECT,
  NODE_STRING,
} from '../json/json-inventory.js';
import type { JsonSignatures } from '../json/json-signatures.js';
import { signaturePath } from '../json/signature-path.js';
import { tupleHeaders } from '../json/tuple-headers.js';
import { tupleTops } from '../json/tuple-tops.js';
import { scalarValue } from './json-records.js';

/** A list of rows read by position is read as records from this many rows. */
const MIN_ROWS = 20;

/**
 * A query result's rows read by position (`{"columns": ["id", "status"], "rows": [[1, "ok"],
 * …]}`, a search engine's `schema` beside its `datarows`, a warehouse's column list beside its
 * `data`), read as records: each cell under the name its column has in the header.
 */
export interface TupleTable {
  /** Path of the rows in the document (`rows[]`), as the note tells a list's. */
  path: string;
  /** The keys from the document's root to the list of rows. */
  keys: string[];
  /** The rows' nodes, in document order (the records of `records`, one for one). */
  rows: number[];
  /** The rows as a JSON list of objects, each cell as written under its column's name. */
  records: string;
}

/**
 * The rows of the one list of rows read by position in `inventory` (`tupleTops`), of one length,
 * at least `MIN_ROWS` of them, reached from the root through object keys only, whose header
 * (`tupleHeaders`) names every position: strings, or objects that each hold the name under one
 * key (the first key whose values are strings, all different: `name`, `ColumnName`). Undefined
 * where there is no such list. Linear in the document.
 */
export function tupleTable(
  inventory: JsonInventory,
  signatures: JsonSignatures,
): TupleTable | undefined {
  const top = tupleTops(inventory, signatures);
  if (!top) return undefined;
  const { count, kind, next, parent, text, start, end, keyStart, keyEnd } = inventory;
  // The list holding the most rows, and its rows.
  const rowsOf = new Map<number, number[]>();
  for (let u = 0; u < count; u++) {
    if (top[u] !== u) continue;
    const list = parent[u]!;
    const rows = rowsOf.get(list);
    if (rows) rows.push(u);
    else rowsOf.set(list, [u]);
  }
  let list = -1;
  let rows: number[] = [];
  for (const [candidate, found] of rowsOf) {
    if (found.length > rows.length) [list, rows] = [candidate, found];
  }
  if (rows.length < MIN_ROWS || kind[list] !== NODE_ARRAY) return undefined;
  const width = childCount(inventory, rows[0]!);
  if (rows.some((row) => childCount(inventory, row) !== width)) return undefined;
  // The keys from the root, through objects only.
  const keys: string[] = [];
  for (let u = list; u > 0; u = parent[u]!) {
    if (kind[parent[u]!] !== NODE_OBJECT) return undefined;
    keys.push(JSON.parse(text.slice(keyStart[u]!, keyEnd[u]!)) as string);
  }
  keys.reverse();
  const names = headerNames(inventory, tupleHeaders(inventory, top), width);
  if (!names) return undefined;
  const parts: string[] = ['['];
  rows.forEach((row, r) => {
    parts.push(r === 0 ? '{' : ',{');
    let i = 0;
    for (let c = row + 1; c < next[row]!; c = next[c]!, i++) {
      parts.push(i === 0 ? '' : ',', names[i]!, ':', text.slice(start[c]!, end[c]!));
    }
    parts.push('}');
  });
  parts.push(']');
  return {
    path: signaturePath(inventory, { signatures }, signatures.of[rows[0]!]!),
    keys,
    rows,
    records: parts.join(''),
  };
}

/**
 * The names of the `width` positions, as JSON strings, from the first header of that many
 * items that names them all apart; undefined where none does.
 */
function headerNames(
  inventory: JsonInventory,
  headers: readonly number[],
  width: number,
): string[] | undefined {
  const { kind, next } = inventory;
  for (const header of headers) {
    const items: number[] = [];
    for (let c = header + 1; c < next[header]!; c = next[c]!) items.push(c);
    if (items.length !== width) continue;
    let names: string[] | undefined;
    if (items.every((c) => kind[c] === NODE_STRING)) {
      names = items.map((c) => scalarValue(inventory, c));
    } else if (items.every((c) => kind[c] === NODE_OBJECT)) {
      names = namesInObjects(inventory, items);
    }
    if (names?.every((name) => name !== '') && new Set(names).size === width) {
      return names.map((name) => JSON.stringify(name));
    }
  }
  return undefined;
}

/** The values of the first key of `items[0]` that every item holds as a string, all different. */
function namesInObjects(inventory: JsonInventory, items: readonly number[]): string[] | undefined {
  const { text, kind, next, keyStart, keyEnd } = inventory;
  const first = items[0]!;
  for (let k = first + 1; k < next[first]!; k = next[k]!) {
    const key = text.slice(keyStart[k]!, keyEnd[k]!);
    const names: string[] = [];
    for (const item of items) {
      let value = -1;
      for (let c = item + 1; c < next[item]!; c = next[c]!) {
        if (text.slice(keyStart[c]!, keyEnd[c]!) === key) {
          value = c;
          break;
        }
      }
      if (value < 0 || kind[value] !== NODE_STRING) break;
      names.push(scalarValue(inventory, value));
    }
    if (names.length === items.length && new Set(names).size === names.length) return names;
  }
  return undefined;
}
