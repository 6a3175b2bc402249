import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from '../create-structural-trimmer.js';
import { viewBody } from '../test-support/view-invariants.js';
import { scanJson } from './json-inventory.js';
import { jsonSignatures } from './json-signatures.js';
import { tupleHeaders } from './tuple-headers.js';
import { tupleTops } from './tuple-tops.js';

/** A query result: its columns described beside rows of values by position. */
function result(rows: number) {
  const schema = ['host', 'status', 'bytes', 'geo', 'at'].map((name, i) => ({
    name,
    type: ['string', 'long', 'long', 'struct', 'timestamp'][i],
  }));
  const datarows = Array.from({ length: rows }, (_, i) => [
    `web-${(i * 7919).toString(36)}.example.org`,
    [200, 200, 404, 500][i % 4],
    1000 + ((i * 37) % 9000),
    { src: ['US', 'IN', 'CN'][i % 3], dest: ['MA', 'SL'][i % 2] },
    `2026-03-0${1 + (i % 9)}T10:00:00Z`,
  ]);
  return JSON.stringify({ schema, datarows, total: rows, size: rows });
}

describe('headers of rows read by position', () => {
  it('are the arrays near the root, outside the rows, of as many items as a row', () => {
    const text = result(12);
    const inventory = scanJson(text, 10_000)!;
    const headers = tupleHeaders(inventory, tupleTops(inventory, jsonSignatures(inventory))!);
    expect(headers.map((u) => text.slice(inventory.start[u]!, inventory.start[u]! + 16))).toEqual([
      '[{"name":"host",',
    ]);
  });

  it('name every column before the first row is shown', () => {
    const text = result(200);
    for (const budget of [700, 1500, 4000]) {
      const body = JSON.parse(viewBody(createStructuralTrimmer().trim(text, budget)));
      expect(body.schema.map((column: { name: string }) => column.name)).toEqual([
        'host',
        'status',
        'bytes',
        'geo',
        'at',
      ]);
      for (const row of body.datarows ?? []) expect(row).toHaveLength(5);
    }
  });
});
