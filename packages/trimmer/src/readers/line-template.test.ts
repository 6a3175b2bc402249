import { describe, expect, it } from 'vitest';
import { lineShape, lineTemplate } from './line-template.js';
import { withTextUnits } from './text-units.js';

const template = (line: string) =>
  withTextUnits(line, (units) => lineTemplate(units, 0, line.length));

describe('lineTemplate', () => {
  it('gives lines printed by one statement one template, whatever their numbers and ids', () => {
    expect(
      template('081109 203615 148 INFO PacketResponder 1 for block blk_3886 terminating'),
    ).toBe(template('081110 101954 26414 INFO PacketResponder 0 for block blk_-52257 terminating'));
    expect(template('\u001b[32m12:00:01 ok sent 200 bytes\u001b[0m')).toBe(
      template('12:00:02 ok sent 4096 bytes'),
    );
    expect(template('hash 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08')).toBe(
      template('hash QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo'),
    );
  });

  it('tells different statements apart', () => {
    expect(template('INFO PacketResponder terminating')).not.toBe(
      template('WARN Got exception while serving'),
    );
    expect(template('ERROR upstream x returned an invalid response')).not.toBe(
      template('ERROR upstream x returned a valid response'),
    );
  });

  it('looks only at the start of a long line', () => {
    const head = 'INFO request handled '.repeat(20);
    expect(template(`${head}tail one`)).toBe(template(`${head}another tail`));
  });
});

describe('lineShape', () => {
  const shape = (line: string, varied = 0) =>
    withTextUnits(line, (units) =>
      lineShape(units, line, 0, line.length, line.length - line.trimStart().length, varied),
    );

  it('writes the words a template reads, # for numbers and ids, * for a varying word', () => {
    expect(
      shape(
        'Dec 10 06:55:46 LabSZ sshd[24200]: Failed password for invalid user admin from 1.2.3.4 port 22 ssh2',
      ),
    ).toBe('Dec # LabSZ sshd[#]: Failed password for invalid user admin from…');
    // The eleventh word (k = 10) is the user name its lines vary in; twelve words are read.
    expect(
      shape(
        'Dec 10 06:55:46 LabSZ sshd[24200]: Failed password for invalid user admin from 1.2.3.4',
        1 << 10,
      ),
    ).toBe('Dec # LabSZ sshd[#]: Failed password for invalid user * from…');
    expect(shape('  \u001b[32m12:00:01 ok   sent 200 bytes.\u001b[0m')).toBe('# ok sent # bytes.');
  });

  it('reads as its template does: lines of one template, one shape (their first words)', () => {
    const a = '2024-05-01T13:00:00Z ERROR [db] write 17 failed';
    const b = '2024-05-02T09:12:44Z ERROR [db] write 90211 failed';
    expect(template(a)).toBe(template(b));
    expect(shape(a)).toBe(shape(b));
  });
});
