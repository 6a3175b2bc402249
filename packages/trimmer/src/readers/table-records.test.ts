import { parseRecordCoverage, trailingDisclosureNotes } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from '../create-structural-trimmer.js';
import { expectHonestView, viewBody } from '../test-support/view-invariants.js';
import { lineStarts } from './line-starts.js';
import { tableAsRecordLines } from './table-records.js';

const trimmer = createStructuralTrimmer();
const NO_STOP = () => undefined;
const budgetAt = (text: string, share: number) => Math.floor(Buffer.byteLength(text) * share);
const noteOf = (text: string) => trailingDisclosureNotes(text)[0]!.text;

/** Rows of `cells` under `header`, each column as wide as its widest cell and two spaces. */
function aligned(header: string[], rows: string[][]): string {
  const widths = header.map((name, k) =>
    Math.max(name.length, ...rows.map((row) => row[k]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, k) => (k === cells.length - 1 ? cell : cell.padEnd(widths[k]! + 2)))
      .join('')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

const records = (text: string) => {
  const table = tableAsRecordLines(text, lineStarts(text, NO_STOP));
  return table?.text.split('\n').map((line) => (line === '' ? undefined : JSON.parse(line)));
};

/** A pod listing as `kubectl get pods -A` prints it, two pods not running. */
function podTable(count: number): { text: string; rows: string[][] } {
  const namespaces = ['default', 'kube-system', 'shop', 'payments', 'monitoring'];
  const rows = Array.from({ length: count }, (_, i) => {
    const status = i === 137 ? 'CrashLoopBackOff' : i === 301 ? 'ImagePullBackOff' : 'Running';
    return [
      namespaces[i % 5]!,
      `web-${((i * 7919) % 100_000).toString(36)}-${i}`,
      status === 'Running' ? '1/1' : '0/1',
      status,
      i === 137 ? '212 (3m ago)' : String(i % 3),
      `${(i % 50) + 1}d`,
    ];
  });
  return {
    text: aligned(['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'], rows),
    rows,
  };
}

describe('tableAsRecordLines', () => {
  it('reads the rows of a table aligned with spaces under their column names, a line each', () => {
    const { text, rows } = podTable(40);
    const read = records(text)!;
    expect(read).toHaveLength(41);
    expect(read[0]).toBeUndefined();
    expect(read[1]).toEqual({
      NAMESPACE: 'default',
      NAME: rows[0]![1],
      READY: '1/1',
      STATUS: 'Running',
      RESTARTS: 0,
      AGE: '1d',
    });
    // A name of two words (`NOMINATED NODE`), empty cells left out, a CRLF text.
    const wide = aligned(
      ['NAME', 'NOMINATED NODE', 'STATUS'],
      Array.from({ length: 30 }, (_, i) => [`pod-${i}`, i % 2 ? 'node-a' : '', 'Pending']),
    ).replaceAll('\n', '\r\n');
    expect(records(wide)![2]).toEqual({
      NAME: 'pod-1',
      'NOMINATED NODE': 'node-a',
      STATUS: 'Pending',
    });
    expect(records(wide)![1]).toEqual({ NAME: 'pod-0', STATUS: 'Pending' });
  });

  it('reads tab- and comma-separated tables, numbers as the numbers they are written as', () => {
    const tsv = ['id\tstate\tms', ...Array.from({ length: 25 }, (_, i) => `r${i}\tok\t${i}.5`)];
    expect(records(tsv.join('\n'))![3]).toEqual({ id: 'r2', state: 'ok', ms: 2.5 });
    const csv = ['host,region,load', ...Array.from({ length: 25 }, (_, i) => `h${i},eu,0${i}`)];
    // `00`, `01`: not a JSON number as written, so a string.
    expect(records(csv.join('\n'))![2]).toEqual({ host: 'h1', region: 'eu', load: '01' });
  });

  it('reads the columns a #fields directive names, past the comment lines before it', () => {
    const zeek = [
      '#separator \\x09',
      '#path\thttp',
      '#fields\tts\tuid\tmethod\tstatus_code',
      '#types\ttime\tstring\tstring\tcount',
      ...Array.from(
        { length: 25 },
        (_, i) => `13202795${i}.5\tC${i}x\tGET\t${i === 7 ? 404 : 200}`,
      ),
      '#close\t2017-04-16-21-36-11',
    ];
    const read = records(zeek.join('\n'))!;
    expect(read).toHaveLength(zeek.length);
    expect(read.slice(0, 4)).toEqual([undefined, undefined, undefined, undefined]);
    expect(read[4 + 7]).toEqual({ ts: 132027957.5, uid: 'C7x', method: 'GET', status_code: 404 });
    expect(read.at(-1)).toBeUndefined();
    // W3C extended logs (IIS, CloudFront) name theirs after `#Fields:`, separated by spaces.
    const w3c = [
      '#Version: 1.0',
      '#Fields: date time c-ip sc-status',
      ...Array.from(
        { length: 25 },
        (_, i) => `2024-05-01 12:00:${String(i).padStart(2, '0')} 10.0.0.${i} 200`,
      ),
    ];
    expect(records(w3c.join('\n'))![3]).toEqual({
      date: '2024-05-01',
      time: '12:00:01',
      'c-ip': '10.0.0.1',
      'sc-status': 200,
    });
  });

  it('reads no table in a log, prose, a short table, or rows that do not line up', () => {
    const log = Array.from(
      { length: 100 },
      (_, i) => `2024-05-01T12:00:${String(i % 60).padStart(2, '0')}Z  INFO  worker ${i} done`,
    );
    const starting = ['Starting  server', ...log];
    const prose = Array.from({ length: 40 }, (_, i) => `This is  sentence ${i} of a long text.`);
    const { text } = podTable(15);
    const ragged = podTable(60)
      .text.split('\n')
      .map((line, i) => (i > 0 && i % 3 === 0 ? ` ${line}` : line));
    for (const lines of [log, starting, prose, text.split('\n'), ragged]) {
      expect(records(lines.join('\n'))).toBeUndefined();
    }
  });

  it('never throws, and reads each row it takes as one record of the header', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 30 }), { minLength: 0, maxLength: 60 }),
        fc.constantFrom('\n', '\r\n'),
        (lines, eol) => {
          const text = ['NAME  STATE', ...lines].join(eol);
          const read = records(text);
          if (read) expect(read).toHaveLength(lineStarts(text, NO_STOP).length);
        },
      ),
    );
  });
});

describe('a table as a text view', () => {
  it('shows the line that names the columns, however many comment lines come before it', () => {
    const comments = Array.from({ length: 20 }, (_, i) => `#meta${i}\tvalue of setting ${i}`);
    const fields = '#fields\tts\tuid\thost\tmethod\tstatus_code\tuser_agent';
    const rows = Array.from(
      { length: 300 },
      (_, i) =>
        `13202795${String(i).padStart(3, '0')}.5\tC${(i * 7919).toString(36)}\thost-${i % 7}.example.org\tGET\t${i === 150 ? 404 : 200}\tMozilla/5.0 (X11; Linux x86_64) build/${i}`,
    );
    const text = [...comments, fields, ...rows].join('\n');
    for (const share of [0.015, 0.03, 0.1]) {
      const view = trimmer.trim(text, budgetAt(text, share));
      expect(viewBody(view).split('\n')).toContain(fields);
    }
  });

  it('tells how the rows divide by each column, and keeps the rows that stand out', () => {
    const { text } = podTable(400);
    for (const share of [0.03, 0.1]) {
      const budget = budgetAt(text, share);
      const view = trimmer.trim(text, budget);
      expectHonestView(view, text, budget);
      const note = noteOf(view.text);
      expect(note).toContain('by STATUS: Running 398, CrashLoopBackOff 1, ImagePullBackOff 1');
      expect(parseRecordCoverage(note)).toMatchObject({ total: 400, namedBy: 'NAME' });
      const body = viewBody(view);
      expect(body.startsWith('NAMESPACE ')).toBe(true);
      expect(body).toMatch(/CrashLoopBackOff +212 \(3m ago\)/);
      expect(body).toContain('ImagePullBackOff');
      if (share === 0.1) {
        expect(note).toContain(
          'by NAMESPACE: default 80, kube-system 80, shop 80, payments 80, monitoring 80',
        );
      }
    }
  });
});
