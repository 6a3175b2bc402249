// Plain JavaScript so `pnpm release` (plain Node) and its test share it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './index.js';

/** The non-private packages under `root`/packages, with their manifests. */
function published(root) {
  const dir = join(root, 'packages');
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .filter((folder) => existsSync(join(folder, 'package.json')))
    .map((folder) => ({
      folder,
      manifest: JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')),
    }))
    .filter(({ manifest }) => !manifest.private)
    .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
}

/**
 * What keeps `pnpm release` from publishing the repository at `root` as it is; empty when it is
 * ready: changesets not yet turned into versions (`changeset publish` would publish the old
 * version without them), packages off the fixed group's one version, a CHANGELOG without an
 * entry for the version being published, a package npm would publish as restricted.
 */
export function releaseProblems(root = REPO_ROOT) {
  const problems = [];
  const pending = readdirSync(join(root, '.changeset')).filter(
    (name) => name.endsWith('.md') && name !== 'README.md',
  );
  if (pending.length > 0)
    problems.push(
      `${pending.length} changeset${pending.length === 1 ? ' is' : 's are'} not versioned yet: run \`pnpm version-packages\`, review and commit the version bumps and CHANGELOG entries, then \`pnpm release\``,
    );
  const packages = published(root);
  const versions = packages.map(({ manifest }) => manifest.version);
  // The version most packages are at; the fixed group in .changeset/config.json moves them together.
  const shared = versions
    .slice()
    .sort(
      (a, b) => versions.filter((v) => v === b).length - versions.filter((v) => v === a).length,
    )[0];
  for (const { folder, manifest } of packages) {
    if (manifest.version !== shared)
      problems.push(
        `${manifest.name} is at ${manifest.version}, not ${shared}: the fixed group publishes one version`,
      );
    if (manifest.publishConfig?.access !== 'public')
      problems.push(`${manifest.name}: package.json has no publishConfig.access "public"`);
    const changelog = existsSync(join(folder, 'CHANGELOG.md'))
      ? readFileSync(join(folder, 'CHANGELOG.md'), 'utf8')
      : '';
    if (!changelog.split('\n').includes(`## ${manifest.version}`))
      problems.push(`${manifest.name}: CHANGELOG.md has no "## ${manifest.version}" entry`);
  }
  return problems;
}

// `node internal/package-checks/release-check.js`: the first step of `pnpm release`.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = releaseProblems();
  for (const problem of problems) console.error(`release: ${problem}`);
  process.exitCode = problems.length ? 1 : 0;
}
