import { fileURLToPath } from 'node:url';
import { createContext, runInContext } from 'node:vm';
import { bigJsonResult } from '@compaction/core/test';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';

const packagesDir = fileURLToPath(new URL('../../', import.meta.url));

// The workspace packages from their sources, as the tests see them; everything else must be
// bundled from what it imports, with no `node:` module and no Node global to lean on.
const workspaceSources: Plugin = {
  name: 'workspace-sources',
  setup(build) {
    build.onResolve({ filter: /^@compaction\/[a-z-]+$/ }, (args) => ({
      path: `${packagesDir}${args.path.slice('@compaction/'.length)}/src/index.ts`,
    }));
  },
};

const ENTRY = `
import { createCompactionMiddlewareV4 } from '@compaction/ai-sdk';
import { createStructuralTrimmer } from '@compaction/trimmer';
const middleware = createCompactionMiddlewareV4({ processor: createStructuralTrimmer(), maxResultBytes: 4096 });
globalThis.compact = async (prompt) => (await middleware.transformParams({ params: { prompt } })).prompt;
`;

async function bundle(): Promise<string> {
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: packagesDir, loader: 'js' },
    bundle: true,
    platform: 'neutral',
    format: 'iife',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    plugins: [workspaceSources],
  });
  return result.outputFiles[0]!.text;
}

describe('the AI SDK middleware on an edge runtime', () => {
  it('bundles for the neutral platform without node: modules', async () => {
    const code = await bundle();
    expect(code).not.toMatch(/\bnode:/);
    expect(code).not.toMatch(/\brequire\(/);
  });

  it('compacts a 2 MB tool result where only web-platform globals exist', async () => {
    const code = await bundle();
    // What an edge runtime (Vercel Edge, Cloudflare Workers, Deno) offers: no process,
    // require or Buffer.
    const sandbox: Record<string, unknown> = {
      TextEncoder,
      TextDecoder,
      crypto: globalThis.crypto,
      WebAssembly: (globalThis as Record<string, unknown>).WebAssembly,
      URL,
      AbortController,
      AbortSignal,
      setTimeout,
      clearTimeout,
      queueMicrotask,
      structuredClone,
      atob,
      btoa,
      console,
    };
    const context = createContext(sandbox);
    runInContext(code, context);
    const pods = bigJsonResult();
    const prompt = [
      { role: 'user', content: [{ type: 'text', text: 'which pod failed?' }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'list_pods',
            output: { type: 'text', value: pods },
          },
        ],
      },
    ];
    const compact = sandbox.compact as (
      p: unknown,
    ) => Promise<Array<{ content: Array<{ output: { value: string } }> }>>;
    const view = (await compact(prompt))[1]!.content[0]!.output.value;
    expect(new TextEncoder().encode(view).length).toBeLessThanOrEqual(4096);
    expect(view).toContain('checkout-7f9c');
  });
});
