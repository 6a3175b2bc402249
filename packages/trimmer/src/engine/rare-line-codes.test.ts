import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from '../create-structural-trimmer.js';
import { rareLineCodes } from './rare-line-codes.js';

const never = () => {};

/** `lines` as one template each (`template(line)`), the scores `rareLineCodes` gives them. */
function scores(lines: readonly string[], template: (line: string) => number = () => 0) {
  const text = lines.join('\n');
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  const bounds: number[] = [];
  let at = 0;
  for (const line of lines) {
    bounds.push(at);
    at += line.length + 1;
  }
  const rowTemplate = Int32Array.from(lines, template);
  const templates = Math.max(0, ...rowTemplate) + 1;
  const counts = new Int32Array(templates);
  for (const id of rowTemplate) counts[id]!++;
  return rareLineCodes(units, bounds, rowTemplate, templates, counts, never);
}

/** A request log in logfmt, newest first: `status(i)` gives each request's status. */
function requests(count: number, status: (i: number) => number, tenant = (_i: number) => 1218) {
  return Array.from({ length: count }, (_, i) => {
    const second = 25 - Math.floor((i * 4) / count);
    const micros = String(999_999 - i * 97).padStart(6, '0');
    return `ts=2024-05-02T12:17:${second}.${micros}Z caller=http.go:194 level=debug traceID=${(i * 2654435761).toString(16).padStart(16, '0').slice(-16)} orgID=${tenant(i)} msg="POST /push.v1.PusherService/Push (${status(i)}) ${1 + (i % 97)}.${i % 1000}ms"`;
  });
}

describe('rareLineCodes', () => {
  it('scores the lines of a rare code among the lines of their template, and only those', () => {
    const lines = requests(3000, (i) => (i % 500 === 7 ? 400 : 200));
    const score = scores(lines)!;
    const rare = lines.flatMap((line, i) => (score[i]! > 0 ? [line] : []));
    expect(rare).toHaveLength(6);
    for (const line of rare) expect(line).toContain('(400)');
    // A rare tenant (5 of 3 000 lines) stands out too, whatever its status.
    const tenants = requests(
      3000,
      () => 200,
      (i) => (i % 600 === 11 ? 75 : i % 2 ? 3648 : 1218),
    );
    const byTenant = scores(tenants)!;
    expect(
      tenants.filter((_, i) => byTenant[i]! > 0).every((line) => line.includes('orgID=75 ')),
    ).toBe(true);
    expect(tenants.filter((_, i) => byTenant[i]! > 0)).toHaveLength(5);
  });

  it('reads no code in a time, a date, a decimal, a version, an address or a word', () => {
    // Every line the same but for these, and one in a hundred different in each: none is a code.
    const lines = Array.from({ length: 400 }, (_, i) => {
      const odd = i % 100 === 3;
      return `2024-05-0${odd ? 3 : 2} 12:${odd ? 18 : 17}:05.${odd ? 9 : 1} v1.${odd ? 4 : 2}.0 10.0.0.${odd ? 9 : 1} port 22 user${odd ? 7 : 1} took ${odd ? 2.5 : 1.5}s`;
    });
    expect(scores(lines)).toBeUndefined();
  });

  it('takes values that fill their run for a count or a time, but 0 and 1 for codes', () => {
    // Three days in a row, the first only in a few lines: no code.
    const days = Array.from(
      { length: 300 },
      (_, i) => `Mar ${i < 4 ? 26 : i < 150 ? 27 : 28} sshd login ok`,
    );
    expect(scores(days)).toBeUndefined();
    // An exit status of 1 among 0s is one.
    const exits = Array.from(
      { length: 300 },
      (_, i) => `job finished with exit ${i === 140 ? 1 : 0}`,
    );
    const score = scores(exits)!;
    expect(score[140]).toBeGreaterThan(0);
    expect(score.filter((s) => s > 0)).toHaveLength(1);
  });

  it('weighs a code only among lines of its own template, of twenty lines or more', () => {
    // 400 is rare among one template's lines, common among the other's: only the first count.
    const lines = [
      ...Array.from({ length: 100 }, (_, i) => `GET /a (${i === 50 ? 400 : 200})`),
      ...Array.from({ length: 100 }, (_, i) => `POST /b (${i % 2 ? 400 : 200})`),
      ...Array.from({ length: 10 }, (_, i) => `PUT /c (${i === 3 ? 500 : 200})`),
    ];
    const score = scores(lines, (line) =>
      line.startsWith('GET') ? 0 : line.startsWith('POST') ? 1 : 2,
    )!;
    expect([...score.keys()].filter((i) => score[i]! > 0)).toEqual([50]);
  });

  it('gives every row a finite score of at least 0, on any text (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', maxLength: 300 }), { minLength: 1, maxLength: 80 }),
        fc.integer({ min: 1, max: 5 }),
        (lines, kinds) => {
          const score = scores(lines, (line) => line.length % kinds);
          for (const s of score ?? []) expect(Number.isFinite(s) && s >= 0).toBe(true);
        },
      ),
    );
  });
});

describe('a view of a log with a rare code', () => {
  it('shows the requests that failed among thousands that did not', () => {
    const lines = requests(5000, (i) => (i % 1000 === 400 ? 400 : 200));
    const text = lines.join('\n');
    const view = createStructuralTrimmer().trim(text, Math.floor(text.length * 0.03)).text;
    expect(view.match(/\(400\)/g)?.length).toBe(5);
  });
});
