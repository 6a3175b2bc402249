import { existsSync } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArtifactServer, type RunningArtifactServer } from './artifact-server.js';
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

  it('shows the error instead of data when the token is wrong', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}#token=wrong`);
    await expect
      .poll(() => page.locator('#status').textContent())
      .toContain('missing or wrong bearer token');
    expect(await page.getByTestId('sessions').locator('li').count()).toBe(0);
  });
});
