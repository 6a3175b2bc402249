import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from './create-structural-trimmer.js';
import { isUnifiedDiff } from './select-text.js';

function routineFile(index: number): string {
  const lines = [
    `diff --git a/src/file${index}.ts b/src/file${index}.ts`,
    `index 1111111..2222222 100644`,
    `--- a/src/file${index}.ts`,
    `+++ b/src/file${index}.ts`,
  ];
  for (let h = 0; h < 6; h++) {
    lines.push(`@@ -${10 + h * 40},7 +${10 + h * 40},7 @@ export function handler${h}() {`);
    for (let c = 0; c < 3; c++) lines.push(`   const value${c} = compute${c}(input);`);
    lines.push(
      '-  return items.map((item) => item.total);',
      '+  return items.map((entry) => entry.total);',
    );
    for (let c = 0; c < 2; c++) lines.push(`   logger.debug('step ${c}');`);
  }
  return lines.join('\n');
}

const needle = [
  'diff --git a/deploy/payments/values.yaml b/deploy/payments/values.yaml',
  'index 3333333..4444444 100644',
  '--- a/deploy/payments/values.yaml',
  '+++ b/deploy/payments/values.yaml',
  '@@ -12,7 +12,7 @@ payments:',
  '   replicas: 6',
  '   database:',
  '-    poolMax: 50',
  '+    poolMax: 5',
  '     poolTimeoutSeconds: 2',
].join('\n');

const files = Array.from({ length: 80 }, (_, i) => routineFile(i));
files.splice(57, 0, needle);
const diff = `${files.join('\n')}\n`;

describe('diffs are trimmed by hunk, each kept hunk with its file header', () => {
  it('recognises a unified diff', () => {
    expect(isUnifiedDiff(diff)).toBe(true);
    expect(isUnifiedDiff('plain\ntext\nwith @@ signs')).toBe(false);
  });

  it('keeps the whole hunk of a file the question names, with the file it belongs to', () => {
    const view = createStructuralTrimmer().trim(diff, 12_000, {
      userQuery: 'what changed in the payments deploy?',
    });
    expect(view.metadata.contentLost).toBe(true);
    expect(view.text).toContain(`${needle}\n`);
    expect(view.text).toMatch(/\[trimmed: \d+\/\d+ file headers and hunks kept/);
    // No hunk appears without its file header.
    const lines = view.text.split('\n');
    let header = false;
    for (const line of lines) {
      if (line.startsWith('diff --git ')) header = true;
      if (line.startsWith('@@ ')) expect(header).toBe(true);
    }
  });
});
