import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './index.js';
import { releaseProblems } from './release-check.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A repository with published packages at the given versions and the given changesets. */
function repository(versions: Record<string, string>, changesets: string[] = []) {
  const root = mkdtempSync(join(tmpdir(), 'release-check-'));
  roots.push(root);
  mkdirSync(join(root, '.changeset'));
  writeFileSync(join(root, '.changeset', 'README.md'), '# Changesets\n');
  writeFileSync(
    join(root, '.changeset', 'config.json'),
    JSON.stringify({ fixed: [['@compaction/*']], access: 'public' }),
  );
  for (const name of changesets) writeFileSync(join(root, '.changeset', name), '---\n---\n');
  for (const [name, version] of Object.entries(versions)) {
    const dir = join(root, 'packages', name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: `@compaction/${name}`, version, publishConfig: { access: 'public' } }),
    );
    writeFileSync(join(dir, 'CHANGELOG.md'), `# @compaction/${name}\n\n## ${version}\n\n- x\n`);
  }
  mkdirSync(join(root, 'packages', 'example'), { recursive: true });
  writeFileSync(
    join(root, 'packages', 'example', 'package.json'),
    JSON.stringify({ name: '@compaction/example', version: '0.0.0', private: true }),
  );
  return root;
}

describe('releaseProblems: what keeps `pnpm release` from publishing (issue 43, item 17)', () => {
  it('is empty for versioned packages that share one version', () => {
    expect(releaseProblems(repository({ core: '0.2.0', cli: '0.2.0' }))).toEqual([]);
  });

  it('asks for `pnpm version-packages` first while changesets are pending', () => {
    const problems = releaseProblems(repository({ core: '0.2.0' }, ['a.md', 'b.md']));
    expect(problems).toEqual([
      '2 changesets are not versioned yet: run `pnpm version-packages`, review and commit the version bumps and CHANGELOG entries, then `pnpm release`',
    ]);
  });

  it('names a package off the shared version, or without its version in the CHANGELOG', () => {
    const root = repository({ core: '0.2.0', digest: '0.2.0', cli: '0.1.0' });
    writeFileSync(join(root, 'packages', 'core', 'CHANGELOG.md'), '# @compaction/core\n');
    expect(releaseProblems(root)).toEqual([
      '@compaction/cli is at 0.1.0, not 0.2.0: the fixed group publishes one version',
      '@compaction/core: CHANGELOG.md has no "## 0.2.0" entry',
    ]);
  });

  it('finds this repository publishable but for its pending changesets', () => {
    const problems = releaseProblems(REPO_ROOT);
    expect(
      problems.filter((problem) => !/changesets? (is|are) not versioned/.test(problem)),
    ).toEqual([]);
  });
});
