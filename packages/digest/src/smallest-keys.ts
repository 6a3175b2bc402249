/** The first `limit` keys of `keys` in code-unit order, without sorting all of them. */
export function smallestKeys(keys: string[], limit: number): string[] {
  const kept: string[] = [];
  for (const key of keys) {
    if (kept.length === limit && key >= kept[limit - 1]!) continue;
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (kept[mid]! < key) low = mid + 1;
      else high = mid;
    }
    kept.splice(low, 0, key);
    if (kept.length > limit) kept.pop();
  }
  return kept;
}
