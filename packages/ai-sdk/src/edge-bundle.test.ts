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
    // A subpath entry point: `@compaction/orchestration/edge` is src/edge/index.ts.
    build.onResolve({ filter: /^@compaction\/[a-z-]+\/[a-z-]+$/ }, (args) => {
      const [name, subpath] = args.path.slice('@compaction/'.length).split('/');
      return { path: `${packagesDir}${name}/src/${subpath}/index.ts` };
    });
  },
};

/** What an edge runtime (Vercel Edge, Cloudflare Workers, Deno) offers: no process, require or Buffer. */
function edgeSandbox(): Record<string, unknown> {
  return {
    TextEncoder,
    TextDecoder,
    crypto: globalThis.crypto,
    WebAssembly: (globalThis as Record<string, unknown>).WebAssembly,
    URL,
    AbortController,
    AbortSignal,
    Event,
    EventTarget,
    DOMException,
    setTimeout,
    clearTimeout,
    queueMicrotask,
    structuredClone,
    performance,
    atob,
    btoa,
    console,
    fetch,
    Headers,
    Request,
    Response,
    ReadableStream,
    WritableStream,
    TransformStream,
    TextEncoderStream,
    TextDecoderStream,
  };
}

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

// The synthesis processor (the distiller over the trimmer, under the compaction deadline) from
// its storage-free entry point, in an app that imports `ai`, bundled as docs/ai-sdk.md advises.
const SYNTHESIS_ENTRY = `
import { wrapLanguageModel } from 'ai';
import { createCompactionMiddlewareV4 } from '@compaction/ai-sdk';
import { createLruDistillCache } from '@compaction/distiller';
import { createSynthesisProcessor } from '@compaction/orchestration/edge';
globalThis.wrapLanguageModel = wrapLanguageModel;
globalThis.makeCompact = (complete) => {
  const processor = createSynthesisProcessor({
    env: {},
    aiClient: { provider: 'scripted', complete },
    distillCache: createLruDistillCache(),
    config: { distill: { cacheSecret: 'edge secret' } },
  });
  const middleware = createCompactionMiddlewareV4({ processor, maxResultBytes: 4096 });
  return async (prompt) => (await middleware.transformParams({ params: { prompt } })).prompt;
};
`;

describe('the synthesis processor on an edge runtime (issue 43, item 18)', () => {
  it('bundles with the ai package for the browser platform, without node: modules', async () => {
    const result = await build({
      stdin: { contents: SYNTHESIS_ENTRY, resolveDir: packagesDir + 'ai-sdk', loader: 'js' },
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
      plugins: [workspaceSources],
    });
    const code = result.outputFiles[0]!.text;
    expect(code).not.toMatch(/\bfrom ['"]node:|require\(['"]node:/);

    const sandbox = edgeSandbox();
    runInContext(code, createContext(sandbox));
    expect(typeof sandbox.wrapLanguageModel).toBe('function');
    const prompts: string[] = [];
    const compact = (
      sandbox.makeCompact as (
        complete: unknown,
      ) => (p: unknown) => Promise<Array<{ content: Array<{ output: { value: string } }> }>>
    )(async (request: { prompt: string }) => {
      prompts.push(request.prompt);
      return { text: 'checkout-7f9c crash-loops: OOMKilled', model: 'scripted' };
    });
    const prompt = (id: string) => [
      { role: 'user', content: [{ type: 'text', text: 'which pod failed?' }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: id,
            toolName: 'list_pods',
            output: { type: 'text', value: bigJsonResult() },
          },
        ],
      },
    ];
    const view = (await compact(prompt('c1')))[1]!.content[0]!.output.value;
    expect(new TextEncoder().encode(view).length).toBeLessThanOrEqual(4096);
    expect(view).toContain('checkout-7f9c crash-loops: OOMKilled');
    expect(view).toContain('[distilled');
    // The same result under another call id: read back from the signed cache, no model call.
    const calls = prompts.length;
    expect((await compact(prompt('c2')))[1]!.content[0]!.output.value).toBe(view);
    expect(prompts).toHaveLength(calls);
  });
});
