// JSON needle questions generated from the fixtures, deterministically: a unique field of a
// record deep in the dominant array, asked for by another unique field of it (the text
// needles are in text-baselines.mjs).
import { dominantArray as dominant } from './records.mjs';
import { countOf as count } from './text-baselines.mjs';

/** Depths in the dominant array (or the text) the needles are taken from. */
export const POSITIONS = [0.35, 0.49, 0.63, 0.78, 0.92];

/** String leaves of a record up to three objects down, as [path, value], sorted by path. */
function leaves(record) {
  const out = [];
  const stack = [['', record, 0]];
  while (stack.length > 0) {
    const [prefix, node, depth] = stack.pop();
    for (const [key, value] of Object.entries(node)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (typeof value === 'string') out.push([path, value]);
      else if (value && typeof value === 'object' && !Array.isArray(value) && depth < 2) {
        stack.push([path, value, depth + 1]);
      }
    }
  }
  return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

const JSON_PHRASES = [
  (ask, name, value) => `What is the ${ask} of the record whose ${name} is ${value}?`,
  (ask, name, value) => `For the entry with ${name} = ${value}, what is its ${ask}?`,
  (ask, name, value) => `Find ${value} (${name}) and tell me the ${ask}.`,
  (ask, name, value) => `${ask} for ${name} ${value}?`,
  (ask, name, value) => `I need the ${ask} value of the item identified by ${name} ${value}.`,
];
const lastSegment = (path) => path.split('.').pop();

/** Up to five JSON needles of the fixture at `path`. */
export function jsonNeedles(path, text) {
  const array = dominant(JSON.parse(text))?.array;
  if (!array) return [];
  const needles = [];
  const used = new Set();
  POSITIONS.forEach((position, index) => {
    for (let offset = 0; offset < array.length; offset++) {
      const at = Math.floor(array.length * position) + offset;
      if (used.has(at)) continue;
      const record = array[at];
      if (!record || typeof record !== 'object' || Array.isArray(record)) continue;
      const unique = leaves(record).filter(([, value]) => {
        const literal = JSON.stringify(value);
        return value.length >= 3 && value.length <= 120 && count(text, literal) === 1;
      });
      if (unique.length < 2) continue;
      const [namePath, nameValue] = unique[0];
      const [askPath, askValue] = unique[1 + ((index * 7) % (unique.length - 1))];
      const phrase = JSON_PHRASES[(needles.length + path.length) % JSON_PHRASES.length];
      used.add(at);
      needles.push({
        fixture: path,
        kind: 'json',
        question: phrase(lastSegment(askPath), lastSegment(namePath), nameValue),
        mustContain: [JSON.stringify(askValue), JSON.stringify(nameValue)],
      });
      break;
    }
  });
  return needles;
}
