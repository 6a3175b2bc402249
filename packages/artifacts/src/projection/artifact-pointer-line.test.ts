import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  artifactFilePointerLine,
  artifactNotStoredLine,
  artifactPointerLine,
  parseArtifactPointerLine,
} from './artifact-pointer-line.js';

describe('artifactPointerLine', () => {
  it('names the id, the file and both tools, and parses back to what it names', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9a-f]{24}$/),
        fc.stringMatching(/^[^()\r\n]{1,80}$/).filter((name) => name.trim() === name),
        (hex, path) => {
          const line = artifactPointerLine({ id: `art_${hex}`, path });
          expect(line).toContain(`artifact_read("art_${hex}", offset, limit)`);
          expect(line).toContain(`artifact_search("art_${hex}", pattern)`);
          expect(parseArtifactPointerLine(line)).toEqual({ id: `art_${hex}`, file: path });
        },
      ),
    );
  });

  it('is not confused with other lines', () => {
    expect(parseArtifactPointerLine('Full output stored as artifact art_1 (x). Use')).toBe(
      undefined,
    );
    expect(parseArtifactPointerLine(artifactNotStoredLine('no session'))).toBe(undefined);
  });

  it('says on one line why a result was not stored', () => {
    expect(artifactNotStoredLine('write failed: EACCES (denied)\nat x')).toBe(
      'Full output not stored (write failed: EACCES denied at x); only this excerpt remains.',
    );
  });

  it('names the file by its path for agents with their own file tools', () => {
    const record = { id: 'art_0123456789abcdef01234567', bytes: 2048, lines: 40 };
    const line = artifactFilePointerLine(record, '/tmp/runs/c1.artifacts/call-1.txt');
    expect(line).toBe(
      'Full output stored as artifact art_0123456789abcdef01234567 in the file /tmp/runs/c1.artifacts/call-1.txt (2048 bytes, 40 lines). Read or grep that file with your file tools to see what this view leaves out.',
    );
    expect(line).not.toContain('artifact_read');
    expect(
      artifactFilePointerLine(
        { ...record, original: { layout: 'json-lines', digest: 'x', bytes: 1 } },
        '/a',
      ),
    ).toContain('(2048 bytes, 40 lines, one JSON value per line)');
  });
});
