// How the benchmarks see a JSON list, independently of the trimmer: its dominant array of
// records, and an identifier per record chosen by a plain rule of their own. Documents are read
// with the lossless parser, so 64-bit ids keep their digits.
import { LosslessNumber, parseJsonLossless } from '@compaction/core';

/** `text` parsed, numbers past 2^53 as `LosslessNumber`s. */
export function parse(text) {
  const parsed = parseJsonLossless(text);
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}

const isScalar = (value) =>
  typeof value === 'string' || typeof value === 'number' || LosslessNumber.isInstance(value);

/** The array holding the most bytes of object items (at least `least` of them), with its path. */
export function dominantArray(root, least = 8) {
  let best;
  let bestSize = 0;
  const stack = [[root, []]];
  while (stack.length > 0) {
    const [node, path] = stack.pop();
    if (Array.isArray(node)) {
      const objects = node.filter(
        (item) => item && typeof item === 'object' && !Array.isArray(item) && !isScalar(item),
      );
      if (objects.length >= least) {
        const size = JSON.stringify(node).length;
        if (size > bestSize) {
          best = { array: node, path };
          bestSize = size;
        }
      }
      node.forEach((item, i) => {
        if (item && typeof item === 'object') stack.push([item, [...path, i]]);
      });
    } else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node))
        if (value && typeof value === 'object') stack.push([value, [...path, key]]);
    }
  }
  return best;
}

/** The value at a path of keys, or undefined. */
export function at(value, path) {
  return path.reduce((node, key) => (node == null ? undefined : node[key]), value);
}

const NAMES = ['name', 'id', 'key', 'uid', 'login', 'number', 'title', 'slug', 'sha'];

/** Scalar fields of a record up to three objects down, as paths. */
function fieldPaths(record) {
  const paths = [];
  const stack = [[record, []]];
  while (stack.length > 0) {
    const [node, path] = stack.pop();
    for (const [key, value] of Object.entries(node)) {
      if (isScalar(value)) paths.push([...path, key]);
      else if (value && typeof value === 'object' && !Array.isArray(value) && path.length < 2) {
        stack.push([value, [...path, key]]);
      }
    }
  }
  return paths;
}

/**
 * The field that identifies the records: present in at least 90% of them, unique, short;
 * among those, one named like an identifier (name, id, key…, shallowest first), else the
 * shortest. Undefined when no field qualifies.
 */
export function identifierPath(records) {
  const counts = new Map();
  for (const record of records) {
    if (!record || typeof record !== 'object' || Array.isArray(record)) continue;
    for (const path of fieldPaths(record)) {
      const key = JSON.stringify(path);
      const entry = counts.get(key) ?? { path, values: new Set(), present: 0, bytes: 0 };
      const value = at(record, path);
      entry.present++;
      entry.values.add(literal(value));
      entry.bytes += literal(value).length;
      counts.set(key, entry);
    }
  }
  const candidates = [...counts.values()].filter(
    (entry) =>
      entry.present >= 0.9 * records.length &&
      entry.values.size >= 0.98 * entry.present &&
      entry.bytes / entry.present <= 64,
  );
  const rank = (entry) => {
    const name = NAMES.indexOf(String(entry.path[entry.path.length - 1]).toLowerCase());
    return (name >= 0 ? 0 : 100) + entry.path.length * 10 + Math.max(name, 0);
  };
  candidates.sort(
    (a, b) =>
      rank(a) - rank(b) || a.bytes / a.present - b.bytes / b.present || (a.path < b.path ? -1 : 1),
  );
  return candidates[0]?.path;
}

/** The text by which an identifier value shows in a JSON view. */
export function literal(value) {
  if (LosslessNumber.isInstance(value)) return value.text;
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}
