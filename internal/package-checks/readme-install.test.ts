import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './index.js';

// Issue 43, item 17: until the first release the packages are not on npm, so a README that
// leads with `npx -y -p @compaction/cli` sends a new user to a 404.
const NPM_LINE =
  /npx -y -p @compaction\/|npm install -g @compaction\/|npm i(nstall)? @compaction\//;
const READMES = ['README.md', 'packages/cli/README.md'];

/** Lines that install from npm with no word on the first release earlier in their section. */
function unmarkedNpmLines(markdown: string): string[] {
  const unmarked: string[] = [];
  let marked = false;
  for (const line of markdown.split('\n')) {
    if (/^#{1,6} /.test(line)) marked = false;
    if (/(after|until) the first release/i.test(line)) marked = true;
    if (NPM_LINE.test(line) && !marked) unmarked.push(line.trim());
  }
  return unmarked;
}

describe('the READMEs before the first release', () => {
  it.each(READMES)('%s marks every npm install line "after the first release"', (file) => {
    const text = readFileSync(join(REPO_ROOT, file), 'utf8');
    expect(unmarkedNpmLines(text)).toEqual([]);
    expect(text).toMatch(/until the first release/i);
    expect(text).toContain('node <clone>/packages/cli/bin/compaction.js');
  });

  it('runs the command from a clone the way they say, from any directory', () => {
    const bin = join(REPO_ROOT, 'packages/cli/bin/compaction.js');
    if (!existsSync(join(REPO_ROOT, 'packages/cli/dist/bundle/compaction.js'))) {
      if (process.env.CI === 'true') throw new Error('build the CLI before testing it');
      return;
    }
    const { version } = JSON.parse(
      readFileSync(join(REPO_ROOT, 'packages/cli/package.json'), 'utf8'),
    );
    const run = spawnSync(process.execPath, [bin, '--version'], {
      cwd: tmpdir(),
      encoding: 'utf8',
    });
    expect(run.stdout).toBe(`${version}\n`);
  });
});
