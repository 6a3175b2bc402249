// Bundles the `compaction` binary into dist/bundle/ so a hook-style `compaction trim` reads three
// files instead of the ~100 ES modules of the packages it uses (CLI cold start,
// bench/cli-cold-start.bench.mjs). Run by `build`, after tsc.
//
// - The entry, `compaction.js` (src/bin.ts): argument handling and the command table. Every
//   module it imports dynamically (each command, the `--otel` session) stays a dynamic import of
//   a bundle of its own, named after the module: `./trim-command.js` loads dist/bundle/trim-command.js.
// - Each of those bundles is built on its own: the module and every Compaction module it uses in
//   one file. Code two commands share is copied into both, which is what keeps a command to one
//   file; a module a command imports dynamically (the RE2 engine behind `search`) becomes a chunk.
//
// Only Compaction packages are bundled: every other import (Node built-ins, the MCP SDK, zod,
// re2js, the optional peers) stays an import resolved at run time from the CLI's dependencies,
// shipped and licensed as those packages ship them. The library API (`@compaction/cli`,
// dist/index.js) is the tsc output and imports the packages as usual.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = join(root, 'dist/bundle');

/** Bare imports other than `@compaction/*` stay imports (Node built-ins included). */
const onlyCompactionPackages = {
  name: 'only-compaction-packages',
  setup(bundle) {
    bundle.onResolve({ filter: /^[^./]/ }, ({ path }) =>
      path.startsWith('@compaction/') ? undefined : { path, external: true },
    );
  },
};

const options = {
  absWorkingDir: root,
  outdir,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // Whitespace and syntax only: V8 parses fewer bytes, and stack traces keep their names.
  minifyWhitespace: true,
  minifySyntax: true,
  // Bundling renames a class whose name collides or that refers to itself (`_CompactionError`),
  // and errors mark themselves with their class name (`new.target.name`, core's errors.ts).
  keepNames: true,
  chunkNames: '[name]-[hash]',
  logLevel: 'warning',
};

rmSync(outdir, { recursive: true, force: true });

/** Source files the entry imports dynamically, by output name: each becomes a bundle. */
const lazy = new Map();
await build({
  ...options,
  entryPoints: { compaction: 'src/bin.ts' },
  plugins: [
    {
      name: 'dynamic-imports-load-bundles',
      setup(bundle) {
        bundle.onResolve({ filter: /^\.\/[\w-]+\.js$/ }, ({ path, kind, resolveDir }) => {
          if (kind !== 'dynamic-import') return undefined;
          lazy.set(path.slice(2, -3), join(resolveDir, path.replace(/\.js$/, '.ts')));
          return { path, external: true };
        });
      },
    },
    onlyCompactionPackages,
  ],
});
if (lazy.size === 0) throw new Error('bundle-bin: the entry imports no command dynamically');
await Promise.all(
  [...lazy].map(([name, source]) =>
    build({
      ...options,
      entryPoints: { [name]: source },
      splitting: true,
      plugins: [onlyCompactionPackages],
    }),
  ),
);
