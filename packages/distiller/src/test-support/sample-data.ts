/** A JSON array of log-like records of roughly `bytes` UTF-8 bytes; ids above 2^53 are written raw. */
export function sampleRecords(bytes: number, seed = 1): string {
  const items: string[] = [];
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const level = (i * seed) % 97 === 0 ? 'ERROR' : 'INFO';
    const item = `{"id":${9_007_199_254_740_993n + BigInt(i)},"ts":"2026-03-0${(i % 9) + 1}T12:${String(i % 60).padStart(2, '0')}:00Z","level":"${level}","service":"svc-${i % 13}","message":"request ${i} handled in ${(i * 7) % 1000} ms"}`;
    items.push(item);
    size += item.length + 1;
  }
  return `[${items.join(',')}]`;
}
