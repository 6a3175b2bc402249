import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPackageFolder, packAndCheck, publishedPackages, REPO_ROOT } from './index.js';

describe('the pack check', () => {
  it('passes every published tarball as pnpm pack writes it', async () => {
    const results = await packAndCheck();
    const names = results.map((result) => result.name);
    expect(names).toEqual(
      publishedPackages()
        .map((pkg) => pkg.name)
        .sort(),
    );
    expect(names).toEqual(
      expect.arrayContaining(['@compaction/core', '@compaction/trimmer', '@compaction/cli']),
    );
    expect(results.flatMap((result) => result.problems)).toEqual([]);
  }, 180_000);

  describe('on a package that is not ready', () => {
    let folder: string;
    beforeAll(() => {
      folder = mkdtempSync(join(tmpdir(), 'compaction-bad-package-'));
      mkdirSync(join(folder, 'dist/test-support'), { recursive: true });
      writeFileSync(join(folder, 'dist/index.js'), 'export const x = 1;\n');
      writeFileSync(join(folder, 'dist/index.d.ts'), 'export declare const x = 1;\n');
      writeFileSync(
        join(folder, 'dist/index.js.map'),
        JSON.stringify({ version: 3, sources: ['../src/index.ts'], mappings: '' }),
      );
      writeFileSync(join(folder, 'dist/index.test.js'), 'test();\n');
      writeFileSync(join(folder, 'dist/test-support/make.js'), '\n');
      writeFileSync(
        join(folder, 'README.md'),
        '# bad\n\nSee [the docs](../../docs/x.md).\n\n## Use\n\n```ts\nx\n```\n',
      );
      writeFileSync(
        join(folder, 'package.json'),
        JSON.stringify({
          name: '@compaction/bad',
          version: '0.0.0',
          license: 'MIT',
          exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
          dependencies: { '@compaction/core': 'workspace:*' },
        }),
      );
    });
    afterAll(() => rmSync(folder, { recursive: true, force: true }));

    it('names everything that is missing or shipped by mistake', () => {
      const problems = checkPackageFolder(folder).map((p) => p.replace('@compaction/bad: ', ''));
      expect(problems).toEqual(
        expect.arrayContaining([
          'LICENSE is missing',
          'CHANGELOG.md is missing',
          'package.json has no repository',
          'package.json has no homepage',
          'package.json has no bugs',
          'README.md does not lead with an example (a code block before the first ## section)',
          'README.md links to ../../docs/x.md, which breaks outside the repository',
          'export . has no default condition',
          'dependencies.@compaction/core is still workspace:*',
          'ships dist/index.test.js, a test, test helper, benchmark or declaration map',
          'ships dist/test-support/make.js, a test, test helper, benchmark or declaration map',
          'dist/index.js.map has no sourcesContent, so it points at sources not shipped',
        ]),
      );
    });

    it('accepts it once it is mended', () => {
      const mended = mkdtempSync(join(tmpdir(), 'compaction-mended-package-'));
      try {
        cpSync(folder, mended, { recursive: true });
        rmSync(join(mended, 'dist/index.test.js'));
        rmSync(join(mended, 'dist/test-support'), { recursive: true });
        rmSync(join(mended, 'dist/index.js.map'));
        cpSync(join(REPO_ROOT, 'LICENSE'), join(mended, 'LICENSE'));
        writeFileSync(join(mended, 'CHANGELOG.md'), '# @compaction/bad\n');
        writeFileSync(join(mended, 'README.md'), '# bad\n\n```ts\nx\n```\n\n## More\n');
        const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
        manifest.description = 'mended';
        manifest.engines = { node: '>=20.19' };
        manifest.homepage = 'https://example.invalid/bad#readme';
        manifest.bugs = { url: 'https://example.invalid/bad/issues' };
        manifest.repository = {
          type: 'git',
          url: 'git+https://example.invalid/bad.git',
          directory: 'packages/bad',
        };
        manifest.exports['.'].default = './dist/index.js';
        manifest.dependencies['@compaction/core'] = '0.1.0';
        writeFileSync(join(mended, 'package.json'), JSON.stringify(manifest));
        const licenseText = readFileSync(join(REPO_ROOT, 'LICENSE'), 'utf8');
        expect(checkPackageFolder(mended, { licenseText })).toEqual([]);
      } finally {
        rmSync(mended, { recursive: true, force: true });
      }
    });
  });
});
