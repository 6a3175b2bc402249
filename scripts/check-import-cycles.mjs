// Fails when the TypeScript sources of packages/ or examples/ hold an import cycle.
// Every import counts: `import type`, `export ... from`, side-effect and dynamic `import()`,
// because a type-level cycle still ties two files together for a reader and a refactor.
// Works offline: it reads the sources with the TypeScript scanner already in devDependencies.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// Cycles wholly inside these folders are reported but do not fail the check (none today).
const EXEMPT = [];

function listSources(dir) {
  const files = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) files.push(...listSources(path));
    else if (/\.(ts|tsx|mts)$/.test(entry) && !entry.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

function sourceRoots() {
  const roots = [];
  for (const group of ['packages', 'examples']) {
    const groupDir = join(root, group);
    if (!existsSync(groupDir)) continue;
    for (const name of readdirSync(groupDir)) {
      const src = join(groupDir, name, 'src');
      if (existsSync(src)) roots.push(src);
    }
  }
  return roots;
}

function firstExisting(candidates) {
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

// The packages' own convention (vitest.config.ts aliases the same way): `@compaction/x` is
// packages/x/src/index.ts and `@compaction/x/sub` is packages/x/src/sub/index.ts.
function resolveSpecifier(specifier, fromFile) {
  if (specifier.startsWith('.')) {
    const base = resolve(dirname(fromFile), specifier);
    const stem = base.replace(/\.(m?js|tsx?)$/, '');
    return firstExisting([`${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, join(base, 'index.ts')]);
  }
  const match = /^@compaction\/([a-z0-9-]+)(?:\/([a-z0-9-]+))?$/.exec(specifier);
  if (!match) return undefined;
  const [, name, sub] = match;
  const src = join(root, 'packages', name, 'src');
  return firstExisting([sub ? join(src, sub, 'index.ts') : join(src, 'index.ts')]);
}

function buildGraph(files) {
  const graph = new Map();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const targets = new Set();
    for (const { fileName } of importedFiles) {
      const target = resolveSpecifier(fileName, file);
      if (target) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

// Tarjan's strongly connected components; every component of more than one file, or a file
// importing itself, is a cycle.
function stronglyConnected(graph) {
  let nextIndex = 0;
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  const visit = (start) => {
    const work = [[start, 0]];
    index.set(start, nextIndex);
    low.set(start, nextIndex);
    nextIndex += 1;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, edge] = frame;
      const edges = graph.get(node) ?? [];
      if (edge < edges.length) {
        frame[1] += 1;
        const next = edges[edge];
        if (!index.has(next)) {
          index.set(next, nextIndex);
          low.set(next, nextIndex);
          nextIndex += 1;
          stack.push(next);
          onStack.add(next);
          work.push([next, 0]);
        } else if (onStack.has(next)) {
          low.set(node, Math.min(low.get(node), index.get(next)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        const selfLoop = component.length === 1 && edges.includes(node);
        if (component.length > 1 || selfLoop) components.push(component.sort());
      }
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return components;
}

const files = sourceRoots().flatMap(listSources);
const components = stronglyConnected(buildGraph(files));
let failures = 0;
for (const component of components) {
  const names = component.map((file) => relative(root, file));
  const exempt = names.every((name) => EXEMPT.some((prefix) => name.startsWith(prefix)));
  if (!exempt) failures += 1;
  console.log(`${exempt ? 'exempt' : 'cycle'}: ${names.join(' <-> ')}`);
}
if (failures > 0) {
  console.error(`${failures} import cycle(s) among ${files.length} files`);
  process.exit(1);
}
console.log(`no import cycles among ${files.length} files`);
