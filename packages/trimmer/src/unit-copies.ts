/** Which units of a text repeat a unit already kept, word for word. */
export interface UnitCopies {
  /** Whether unit `i` reads exactly as a unit passed to `add` (its line ending aside). */
  isCopy(i: number): boolean;
  /** Records unit `i` as kept. */
  add(i: number): void;
}

/**
 * Exact copies among the units of `text` cut at `starts`, each unit hashed only when first asked
 * about (FNV-1a over its UTF-16 units, a hash match confirmed by comparing the texts), so the
 * cost is linear in the units looked at.
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
      hash = Math.imul(hash ^ text.charCodeAt(at), 0x01000193);
    }
    hashes[i] = hash;
    hashed[i] = 1;
    return hash;
  };
  const same = (a: number, b: number): boolean => {
    const length = end(a) - starts[a]!;
    return (
      length === end(b) - starts[b]! &&
      text.startsWith(text.slice(starts[a]!, starts[a]! + length), starts[b]!)
    );
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
