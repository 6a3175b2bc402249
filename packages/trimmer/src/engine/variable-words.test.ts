import { parseLineShapes, trailingDisclosureNotes } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from '../create-structural-trimmer.js';
import { viewBody } from '../test-support/view-invariants.js';
import { mergeVariableWords } from './variable-words.js';

const never = () => {};

/** Each of `lines` as a template of its own; the merge of them, as template ids per line. */
function merged(lines: readonly string[]): number[] | undefined {
  const text = lines.join('\n');
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  const from = new Int32Array(lines.length);
  const to = new Int32Array(lines.length);
  let at = 0;
  lines.forEach((line, i) => {
    from[i] = at;
    to[i] = at + line.length;
    at += line.length + 1;
  });
  const result = mergeVariableWords(units, from, to, from, lines.length, never);
  return result && Array.from(result.map);
}

/** Thirty user names, none holding a digit. */
const USERS = Array.from(
  { length: 30 },
  (_, i) =>
    ['admin', 'test', 'oracle', 'guest', 'postgres', 'deploy'][i % 6]! +
    'xyzvw'.slice(0, Math.floor(i / 6)),
);

/** Three hundred user names an attack tries, none holding a digit. */
const TRIED = Array.from(
  { length: 300 },
  (_, i) =>
    ['admin', 'test', 'oracle', 'guest', 'postgres', 'deploy', 'ftp', 'git', 'www', 'pi'][i % 10]! +
    ['', 'x', 'adm', 'srv', 'ops', 'dev', 'qa', 'bak', 'sys', 'web'][Math.floor(i / 10) % 10]! +
    ['', 'a', 'b'][Math.floor(i / 100)]!,
);

/** A log of failed logins by many user names, a few accepted, and routine session lines. */
function attackLog(lines: number) {
  return Array.from({ length: lines }, (_, i) => {
    const at = `Mar ${10 + Math.floor(i / 400)} 0${i % 10}:${String(i % 60).padStart(2, '0')}:00 host sshd[${1000 + i}]:`;
    if (i % 800 === 400)
      return `${at} Accepted password for deploy from 10.0.0.${i % 250} port ${40000 + i} ssh2`;
    if (i % 3 === 0) return `${at} pam_unix(sshd:session): session closed for user root`;
    return `${at} Failed password for invalid user ${TRIED[(i * 7) % TRIED.length]} from 203.0.113.${i % 250} port ${40000 + i} ssh2`;
  });
}

describe('mergeVariableWords', () => {
  it('merges templates that differ in a word of many values, and only those', () => {
    const lines = [
      ...USERS.map((user) => `Failed password for invalid user ${user} from host`),
      'Accepted password for deploy from host',
      'Failed password for root from host',
    ];
    const map = merged(lines)!;
    expect(new Set(map.slice(0, USERS.length)).size).toBe(1);
    expect(new Set(map).size).toBe(3);
  });

  it('keeps a statement own words apart: a state of a few values is no variable', () => {
    const states = [
      'started',
      'finished',
      'aborted',
      'queued',
      'retried',
      'skipped',
      'failed',
      'paused',
    ];
    expect(merged(states.map((state) => `job build ${state} on runner`))).toBeUndefined();
    // Nor does a template of fewer than four words merge.
    expect(merged(USERS.map((user) => `login ${user}`))).toBeUndefined();
  });

  it('maps every template to a dense id, on any lines (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', maxLength: 120 }), { minLength: 1, maxLength: 60 }),
        (lines) => {
          const map = merged(lines);
          if (!map) return;
          const ids = new Set(map);
          expect([...ids].sort((a, b) => a - b)).toEqual([...Array(ids.size).keys()]);
        },
      ),
    );
  });
});

describe('a view of a log whose common lines vary in a word', () => {
  it('shows the rare lines among failures by hundreds of user names', () => {
    const text = attackLog(4000).join('\n');
    const view = createStructuralTrimmer().trim(text, Math.floor(text.length * 0.03));
    expect(viewBody(view).match(/Accepted password/g)?.length).toBe(5);
  });

  it('tells how many lines of the failures there were, the user name shown as a varying word', () => {
    const lines = attackLog(4000);
    const text = lines.join('\n');
    const view = createStructuralTrimmer().trim(text, Math.floor(text.length * 0.03));
    const failed = lines.filter((line) => line.includes('Failed password')).length;
    const shapes = parseLineShapes(trailingDisclosureNotes(view.text)[0]!.text);
    expect(shapes).toContainEqual({
      count: failed,
      shape: 'Mar # host sshd[#]: Failed password for invalid user * from…',
    });
  });
});
