// The trimmer and the digest as a browser gets them: bundled by esbuild for the browser platform
// (no Node built-ins, no Buffer, no process), then run in real headless Chromium on a real
// fixture, with the WebAssembly paths in use. The page's answers must equal Node's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixturesAvailable, readFixture } from '@compaction/fixtures';
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumTestsRun } from '@compaction/test-runtime';
import { build } from 'esbuild';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './index.js';

const ENTRY = fileURLToPath(new URL('./browser/compaction-in-browser.ts', import.meta.url));
// The artifacts package needs Node for its store; its excerpt must not, so it is bundled alone.
const EXCERPT = join(REPO_ROOT, 'packages/artifacts/dist/projection/excerpt.js');
const LOG_FIXTURE = 'logs/loghub-OpenSSH_2k.log';
const EXCERPT_SOURCE = {
  totalChars: 0,
  totalBytes: 0,
  digest: '0'.repeat(64),
  file: 'runs/s1.artifacts/op-7.txt',
};
// 64-bit ids, non-ASCII text (the portable UTF-16 copy), and 630 KB: every wasm path works.
const FIXTURE = 'bigint/twitter-search-results.json';
const BUDGET = 8192;
const QUERY = 'which tweets mention the 2012 Olympics?';

interface PageAnswer {
  hasBuffer: boolean;
  hasProcess: boolean;
  numberScanBackend: string;
  tapeOk: boolean;
  losslessOk: boolean;
  trimmed: string;
  trimmedBytes: number;
  contentLost: boolean;
  digest: string | null;
}

async function bundleForBrowser(entry = ENTRY, globalName = 'Compaction'): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName,
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    absWorkingDir: REPO_ROOT,
  });
  return result.outputFiles[0]!.text;
}

describe('the browser bundle', () => {
  it('bundles core, the trimmer, the digest and the excerpt without a Node built-in', async () => {
    const bundle = await bundleForBrowser();
    expect(bundle).toContain('WebAssembly');
    for (const text of [bundle, await bundleForBrowser(EXCERPT, 'CompactionExcerpt')]) {
      expect(text).not.toMatch(/require\(["']node:/);
      // Free uses of Node globals; a feature test through globalThis (globalThis.Buffer) is fine.
      expect(text.match(/(?<![.\w$])(?:(?:Buffer|process)\s*\.|require\s*\()/g)).toBeNull();
    }
  }, 60_000);
});

describe.skipIf(!chromiumTestsRun('the browser bundle test') || !fixturesAvailable())(
  'in headless Chromium',
  () => {
    let browser: BrowserContext;
    let profile: string;
    let answer: PageAnswer;
    let excerptText: string;
    const log = () => readFixture(LOG_FIXTURE);
    const source = () => ({
      ...EXCERPT_SOURCE,
      totalChars: log().length,
      totalBytes: log().length,
    });

    beforeAll(async () => {
      profile = mkdtempSync(join(tmpdir(), 'compaction-chromium-'));
      // A fresh profile each run (Playwright passes it as --user-data-dir).
      browser = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM_PATH,
        args: [...CHROMIUM_ARGS],
      });
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.setContent('<!doctype html><title>compaction</title>');
      await page.addScriptTag({ content: await bundleForBrowser() });
      answer = await page.evaluate(
        ([text, budget, query]) =>
          (
            globalThis as unknown as { Compaction: { run(...args: unknown[]): PageAnswer } }
          ).Compaction.run(text, budget, query),
        [readFixture(FIXTURE), BUDGET, QUERY] as const,
      );
      await page.addScriptTag({ content: await bundleForBrowser(EXCERPT, 'CompactionExcerpt') });
      excerptText = await page.evaluate(
        ([text, excerptSource]) =>
          (
            globalThis as unknown as {
              CompactionExcerpt: { excerpt(...args: unknown[]): { text: string } };
            }
          ).CompactionExcerpt.excerpt(text, 2000, excerptSource, { maxBytes: 4000 }).text,
        [log(), source()] as const,
      );
      expect(errors).toEqual([]);
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      if (profile) rmSync(profile, { recursive: true, force: true });
    });

    it('runs where there is no Buffer and no process, on the WebAssembly paths', () => {
      expect(answer.hasBuffer).toBe(false);
      expect(answer.hasProcess).toBe(false);
      expect(answer.numberScanBackend).toBe('wasm');
      expect(answer.tapeOk).toBe(true);
      expect(answer.losslessOk).toBe(true);
    });

    it('trims the fixture within its budget, saying it lost content, exactly as Node does', async () => {
      const { createStructuralTrimmer } = await import('@compaction/trimmer');
      const inNode = createStructuralTrimmer().trim(readFixture(FIXTURE), BUDGET, {
        userQuery: QUERY,
      });
      expect(answer.trimmedBytes).toBeLessThanOrEqual(BUDGET);
      expect(answer.contentLost).toBe(true);
      expect(answer.trimmed).toBe(inNode.text);
    });

    it('digests the fixture exactly as Node does, 64-bit ids intact', async () => {
      const { createDigester } = await import('@compaction/digest');
      const inNode = createDigester().digest(readFixture(FIXTURE));
      expect(inNode.ok).toBe(true);
      expect(answer.digest).toBe(inNode.ok ? inNode.digest : null);
      expect(answer.digest).toMatch(/\d{18,}/);
    });

    it('cuts the same excerpt of a real log as Node, marker and byte limit included', async () => {
      const { excerpt } = await import('@compaction/artifacts');
      const inNode = excerpt(log(), 2000, source(), { maxBytes: 4000 });
      expect(excerptText).toBe(inNode.text);
      expect(excerptText).toContain('full result: op-7.txt sha256 ');
      expect(new TextEncoder().encode(excerptText).length).toBeLessThanOrEqual(4000);
    });
  },
);
