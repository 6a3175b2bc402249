/** First index in the sorted `positions` that is ≥ `at`. */
export function lowerBound(positions: readonly number[], at: number): number {
  let low = 0;
  let high = positions.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (positions[mid]! < at) low = mid + 1;
    else high = mid;
  }
  return low;
}
