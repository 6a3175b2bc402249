import { existsSync } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArtifactServer, type RunningArtifactServer } from './artifact-server.js';
import { createModelCallLog } from './model-call-log.js';
import { makeSessionDir } from './test-support/make-session-dir.js';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
// CI installs Chromium, so there a missing browser fails the run instead of skipping it.
const runInCi = process.env.CI === 'true';
if (!available && !runInCi) {
  console.warn(
    `inspector-page.test: ${CHROMIUM} not found, skipping the browser test (apt-get install chromium)`,
  );
}
const screenshotDir = fileURLToPath(new URL('../test-results/', import.meta.url));

describe.skipIf(!available && !runInCi)('inspector page in headless Chromium', () => {
  let root: string;
  let ids: { terminal: string; read: string };
  let server: RunningArtifactServer;
  let browser: Browser;

  beforeAll(async () => {
    ({ root, ids } = await makeSessionDir());
    server = await createArtifactServer({ dir: root, token: 'tok-123' }).listen();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('lists, opens, pages and searches an artifact', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}#token=tok-123`);

    await page.getByTestId('sessions').getByText('demo-session').click();
    const artifacts = page.getByTestId('artifacts');
    await expect.poll(() => artifacts.locator('li').count()).toBe(2);
    const terminal = artifacts.locator('li').filter({ hasText: 'terminal make test' });
    await expect.poll(() => terminal.textContent()).toContain('terminal_log');
    await terminal.locator('button').click();

    const content = page.getByTestId('content');
    await expect.poll(() => content.textContent()).toContain('line 1: step 0 ok ✓');
    expect(await page.getByTestId('artifact-title').textContent()).toBe('terminal make test');
    expect(await page.getByTestId('range').textContent()).toBe('lines 1–100');

    await page.getByTestId('next').click();
    await expect.poll(() => page.getByTestId('range').textContent()).toBe('lines 101–200');
    expect(await content.textContent()).toContain('line 101: step 100 ok ✓');
    expect(await content.textContent()).not.toContain('line 100: step 99');

    await page.getByTestId('pattern').fill('quota');
    await page.getByTestId('search').click();
    await expect.poll(() => page.getByTestId('match-count').textContent()).toBe('1 matching lines');
    await page.getByTestId('matches').getByText('778: ERROR: disk quota exceeded').click();
    await expect.poll(() => page.getByTestId('range').textContent()).toBe('lines 701–800');
    expect(await content.textContent()).toContain('needle-777');

    await mkdir(screenshotDir, { recursive: true });
    const shot = `${screenshotDir}inspector.png`;
    await page.screenshot({ path: shot, fullPage: true });
    expect((await stat(shot)).size).toBeGreaterThan(10_000);
    expect(errors).toEqual([]);
    expect(ids.terminal).toMatch(/^art_/);
  });

  it('lists the recorded model calls per request in the second tab', async () => {
    const log = createModelCallLog({ dir: join(root, 'demo-session.artifacts') });
    await log.append({
      description: 'map-reduce chunk 1/2',
      requestId: 'req-1',
      stepId: 'step-3',
      model: 'fast',
      inputBytes: 131_000,
      output: 'chunk one: pool exhausted at 06:43',
      usage: { inputTokens: 37_000, outputTokens: 120 },
      durationMs: 812,
    });
    await log.append({
      description: 'map-reduce chunk 2/2',
      requestId: 'req-1',
      stepId: 'step-3',
      model: 'fast',
      inputBytes: 90_000,
      durationMs: 45_000,
      error: 'the compaction deadline of 45s was reached',
    });
    await log.append({
      description: 'single-call distill',
      requestId: 'req-2',
      stepId: 'step-1',
      model: 'fast',
      inputBytes: 60_000,
      output: 'three pods restarting',
      usage: { inputTokens: 17_000, outputTokens: 40 },
      durationMs: 430,
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}#token=tok-123`);
    await page.getByTestId('sessions').getByText('demo-session').click();
    await page.getByTestId('tab-calls').click();
    const rows = page.getByTestId('call-row');
    await expect.poll(() => rows.count()).toBe(3);
    const calls = page.getByTestId('calls');
    expect(await calls.textContent()).toContain('Request req-1 · 2 calls');
    expect(await calls.textContent()).toContain('Request req-2 · 1 calls');
    expect(await rows.nth(1).textContent()).toContain(
      'failed: the compaction deadline of 45s was reached',
    );
    await rows.nth(0).locator('summary').click();
    expect(await rows.nth(0).locator('pre').textContent()).toBe(
      'chunk one: pool exhausted at 06:43',
    );
    await mkdir(screenshotDir, { recursive: true });
    await page.screenshot({ path: `${screenshotDir}inspector-model-calls.png`, fullPage: true });
    await page.getByTestId('tab-artifacts').click();
    await expect.poll(() => page.getByTestId('artifacts').locator('li').count()).toBe(2);
    expect(errors).toEqual([]);
  });

  it('shows the error instead of data when the token is wrong', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}#token=wrong`);
    await expect
      .poll(() => page.locator('#status').textContent())
      .toContain('missing or wrong bearer token');
    expect(await page.getByTestId('sessions').locator('li').count()).toBe(0);
  });
});
