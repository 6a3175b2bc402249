// Plain JavaScript so the tests (through Vitest) and `pnpm pack:check` (plain Node) share it.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository root. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The packages that are published: every non-private package under packages/. */
export function publishedPackages() {
  const packagesDir = join(REPO_ROOT, 'packages');
  return readdirSync(packagesDir)
    .map((name) => join(packagesDir, name))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => !manifest.private)
    .map(({ dir, manifest }) => ({ dir, name: manifest.name, version: manifest.version }));
}

/**
 * How to run pnpm from here: the pnpm running this process (`pnpm test` sets npm_execpath), or
 * the pinned pnpm through npx.
 */
function pnpmCommand() {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm/.test(execPath)) {
    // pnpm 12 is a native executable; older ones are a script for Node.
    if (/\.[cm]?js$/.test(execPath)) return { file: process.execPath, args: [execPath] };
    return { file: execPath, args: [] };
  }
  return { file: 'npx', args: ['-y', 'pnpm@12.4.2'] };
}

/** Runs `pnpm pack` in every published package (built first) and returns each tarball's path. */
export async function packPackages(destination) {
  const pnpm = pnpmCommand();
  const packages = publishedPackages();
  const packed = [];
  // Two at a time: each pack is a short Node process, and the machine is shared.
  for (let i = 0; i < packages.length; i += 2) {
    const batch = packages.slice(i, i + 2);
    await Promise.all(
      batch.map(async (pkg) => {
        await run(pnpm.file, [...pnpm.args, 'pack', '--pack-destination', destination], {
          cwd: pkg.dir,
          maxBuffer: 16 * 1024 * 1024,
        });
        const base = `${pkg.name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`;
        packed.push({ ...pkg, tarball: join(destination, base) });
      }),
    );
  }
  return packed.sort((a, b) => a.name.localeCompare(b.name));
}

/** Unpacks a tarball into a new temporary folder and returns the package's folder. */
export async function unpackTarball(tarball) {
  const into = mkdtempSync(join(tmpdir(), 'compaction-unpacked-'));
  await run('tar', ['-xzf', tarball, '-C', into]);
  return join(into, 'package');
}

/** Every file path in a folder, relative to it, with `/` separators. */
function listFiles(root, prefix = '') {
  const files = [];
  for (const entry of readdirSync(join(root, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...listFiles(root, path));
    else files.push(path);
  }
  return files;
}

const TEST_FILE =
  /(^|\/)(test-support|__tests__)\/|\.(test|spec|bench)\.[cm]?[jt]sx?(\.map)?$|\.d\.ts\.map$/;
const FIELDS = ['description', 'license', 'repository', 'homepage', 'bugs', 'engines', 'exports'];

/** Markdown links whose target only resolves inside the repository. */
function relativeLinks(markdown) {
  const links = [];
  for (const match of markdown.matchAll(/\]\(([^)\s]+)[^)]*\)/g)) {
    const target = match[1];
    if (!/^(https?:|mailto:|#)/.test(target)) links.push(target);
  }
  return links;
}

/**
 * What keeps an unpacked package from being published as it is; empty when it is ready. Checks
 * the files a user needs (LICENSE, a README that leads with an example and whose links work
 * outside the repository, CHANGELOG.md), the metadata registries show, that every export has
 * `types`, `import` and `default` and that they exist, that no workspace: range is left, that
 * source maps carry their sources, and that no test, test helper or benchmark is shipped.
 */
export function checkPackageFolder(folder, { licenseText } = {}) {
  const problems = [];
  const files = listFiles(folder);
  const has = (path) => files.includes(path);
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  const name = manifest.name ?? folder;
  const problem = (message) => problems.push(`${name}: ${message}`);

  for (const file of ['LICENSE', 'README.md', 'CHANGELOG.md']) {
    if (!has(file)) problem(`${file} is missing`);
  }
  if (
    licenseText &&
    has('LICENSE') &&
    readFileSync(join(folder, 'LICENSE'), 'utf8') !== licenseText
  )
    problem('LICENSE differs from the repository LICENSE');
  for (const field of FIELDS)
    if (manifest[field] === undefined) problem(`package.json has no ${field}`);
  if (manifest.repository && !manifest.repository.directory)
    problem('package.json repository has no directory');

  if (has('README.md')) {
    const readme = readFileSync(join(folder, 'README.md'), 'utf8');
    const firstSection = readme.split(/\n## /)[0];
    if (!firstSection.includes('```'))
      problem('README.md does not lead with an example (a code block before the first ## section)');
    for (const link of relativeLinks(readme))
      problem(`README.md links to ${link}, which breaks outside the repository`);
  }

  for (const [key, target] of Object.entries(manifest.exports ?? {})) {
    if (typeof target === 'string') {
      if (!has(target.replace(/^\.\//, ''))) problem(`export ${key} points at missing ${target}`);
      continue;
    }
    for (const condition of ['types', 'import', 'default']) {
      const path = target[condition];
      if (typeof path !== 'string') problem(`export ${key} has no ${condition} condition`);
      else if (!has(path.replace(/^\.\//, '')))
        problem(`export ${key} ${condition} points at missing ${path}`);
    }
    if (Object.keys(target).at(-1) !== 'default')
      problem(`export ${key}: default must be the last condition`);
  }
  for (const [bin, path] of Object.entries(manifest.bin ?? {})) {
    if (!has(path.replace(/^\.\//, ''))) problem(`bin ${bin} points at missing ${path}`);
  }
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [dep, range] of Object.entries(manifest[field] ?? {})) {
      if (String(range).startsWith('workspace:')) problem(`${field}.${dep} is still ${range}`);
    }
  }

  for (const file of files) {
    if (TEST_FILE.test(file))
      problem(`ships ${file}, a test, test helper, benchmark or declaration map`);
    if (file.endsWith('.js.map')) {
      const map = JSON.parse(readFileSync(join(folder, file), 'utf8'));
      const complete =
        Array.isArray(map.sourcesContent) &&
        map.sourcesContent.length === map.sources.length &&
        map.sourcesContent.every((content) => typeof content === 'string');
      if (!complete) problem(`${file} has no sourcesContent, so it points at sources not shipped`);
    }
    if (file.endsWith('.ts') && !file.endsWith('.d.ts')) problem(`ships TypeScript source ${file}`);
  }
  return problems;
}

/** Packs every published package into a temporary folder and checks each tarball. */
export async function packAndCheck() {
  const destination = mkdtempSync(join(tmpdir(), 'compaction-pack-'));
  try {
    const licenseText = readFileSync(join(REPO_ROOT, 'LICENSE'), 'utf8');
    const packed = await packPackages(destination);
    const results = [];
    for (const pkg of packed) {
      const folder = await unpackTarball(pkg.tarball);
      try {
        results.push({ ...pkg, problems: checkPackageFolder(folder, { licenseText }) });
      } finally {
        rmSync(dirname(folder), { recursive: true, force: true });
      }
    }
    return results;
  } finally {
    rmSync(destination, { recursive: true, force: true });
  }
}
