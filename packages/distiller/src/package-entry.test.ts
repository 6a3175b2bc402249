import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const OPTIONAL = ['openai', '@anthropic-ai/sdk', 'ioredis'];

/** Every bare module a source file reaches through its relative imports (type-only imports excluded). */
function reachablePackages(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(
      /^(?:import|export)\s+(type\s+)?[^'"]*?from\s+'([^']+)'/gm,
    )) {
      if (match[1]) continue;
      const specifier = match[2]!;
      if (specifier.startsWith('.'))
        queue.push(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else packages.add(specifier);
    }
    for (const match of source.matchAll(/import\(\s*'([^']+)'\s*\)/g)) packages.add(match[1]!);
  }
  return packages;
}

describe('package entry points', () => {
  it('keeps the provider SDKs and ioredis out of the main entry', () => {
    const reached = reachablePackages(join(here, 'index.ts'));
    expect(reached.has('@compaction/core')).toBe(true);
    for (const name of OPTIONAL) expect(reached.has(name)).toBe(false);
  });

  it('loads each optional package only from its own subpath', () => {
    expect(reachablePackages(join(here, 'openai/index.ts')).has('openai')).toBe(true);
    expect(reachablePackages(join(here, 'anthropic/index.ts')).has('@anthropic-ai/sdk')).toBe(true);
    expect(reachablePackages(join(here, 'redis/index.ts')).has('ioredis')).toBe(true);
  });
});
