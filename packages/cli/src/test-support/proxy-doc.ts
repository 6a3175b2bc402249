import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DOC = fileURLToPath(new URL('../../../../docs/proxy.md', import.meta.url));

/** The fenced block after `<!-- proxy-client: NAME -->` in docs/proxy.md, as lines. */
export function proxyDocBlock(name: string): string[] {
  const text = readFileSync(DOC, 'utf8');
  const match = new RegExp(
    `<!-- proxy-client: ${name} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\\n\`\`\``,
  ).exec(text);
  if (!match) throw new Error(`docs/proxy.md has no proxy-client block ${name}`);
  return match[1]!.split('\n');
}

/** Every proxy-client block name in docs/proxy.md. */
export function proxyDocClients(): string[] {
  const text = readFileSync(DOC, 'utf8');
  return [...text.matchAll(/<!-- proxy-client: ([a-z-]+) -->/g)].map((m) => m[1]!);
}

/** The `NAME=value` assignments of a shell line. */
export function envAssignments(line: string): Record<string, string> {
  return Object.fromEntries(
    [...line.matchAll(/(?:^|\s)([A-Z_]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]),
  );
}

/** `url` (a doc's `http://127.0.0.1:8787…`) on the port a test's proxy listens on. */
export function onPort(url: string, proxyUrl: string): string {
  const given = new URL(url);
  const actual = new URL(proxyUrl);
  if (given.host !== '127.0.0.1:8787')
    throw new Error(`the docs name ${given.host}, not the default 127.0.0.1:8787`);
  return `${actual.origin}${given.pathname === '/' ? '' : given.pathname}`;
}
