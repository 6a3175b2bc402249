/** Which units of a text repeat a unit already kept, word for word. */
export interface UnitCopies {
  /** Whether unit `i` reads exactly as a unit passed to `add` (its line ending aside). */
  isCopy(i: number): boolean;
  /** Records unit `i` as kept. */
  add(i: number): void;
}

const ESC = 0x1b;
const BEL = 0x07;

/**
 * Where the terminal string sequence at `at` ends (`ESC _bk;t=1725840915929 BEL`, a CI's
 * timestamp; `ESC ]8;;url ESC \`, a hyperlink's), or `at` when none starts there: what a
 * terminal does not print does not make two lines differ.
 */
function skipString(text: string, at: number, to: number): number {
  if (text.charCodeAt(at) !== ESC) return at;
  const kind = text.charCodeAt(at + 1);
  if (kind !== 0x5d && kind !== 0x50 && kind !== 0x58 && kind !== 0x5e && kind !== 0x5f) return at;
  for (let j = at + 2; j < to; j++) {
    const code = text.charCodeAt(j);
    if (code === BEL) return j + 1;
    if (code === ESC) return text.charCodeAt(j + 1) === 0x5c ? j + 2 : at;
  }
  return at;
}

/**
 * Exact copies among the units of `text` cut at `starts`, each unit hashed only when first asked
 * about (FNV-1a over its UTF-16 units, terminal string sequences left out), a hash match
 * confirmed by comparing the texts, so the cost is linear in the units looked at.
 */
export function unitCopies(text: string, starts: readonly number[]): UnitCopies {
  const total = starts.length;
  const hashes = new Int32Array(total);
  const hashed = new Uint8Array(total);
  const kept = new Map<number, number>();
  const end = (i: number): number => {
    let to = i + 1 < total ? starts[i + 1]! : text.length;
    if (to > starts[i]! && text.charCodeAt(to - 1) === 0x0a) to--;
    if (to > starts[i]! && text.charCodeAt(to - 1) === 0x0d) to--;
    return to;
  };
  const hashOf = (i: number): number => {
    if (hashed[i] === 1) return hashes[i]!;
    let hash = 0x811c9dc5 | 0;
    const to = end(i);
    for (let at = starts[i]!; at < to; at++) {
      const next = skipString(text, at, to);
      if (next > at) {
        at = next - 1;
        continue;
      }
      hash = Math.imul(hash ^ text.charCodeAt(at), 0x01000193);
    }
    hashes[i] = hash;
    hashed[i] = 1;
    return hash;
  };
  /** Whether units `a` and `b` read the same, string sequences left out. */
  const same = (a: number, b: number): boolean => {
    const aEnd = end(a);
    const bEnd = end(b);
    let x = starts[a]!;
    let y = starts[b]!;
    for (;;) {
      x = skipToVisible(x, aEnd);
      y = skipToVisible(y, bEnd);
      if (x >= aEnd || y >= bEnd) return x >= aEnd && y >= bEnd;
      if (text.charCodeAt(x) !== text.charCodeAt(y)) return false;
      x++;
      y++;
    }
  };
  const skipToVisible = (at: number, to: number): number => {
    for (let next = skipString(text, at, to); next > at; next = skipString(text, at, to)) at = next;
    return at;
  };
  return {
    isCopy(i) {
      const first = kept.get(hashOf(i));
      return first !== undefined && first !== i && same(first, i);
    },
    add(i) {
      const hash = hashOf(i);
      if (!kept.has(hash)) kept.set(hash, i);
    },
  };
}
