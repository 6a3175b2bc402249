import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArtifactRecord } from '../storage/artifact-record.js';
import { createArtifactStore } from '../storage/artifact-store.js';
import { restoreJsonLayout } from '../storage/json-layout.js';
import { createModelCallLog } from '../storage/model-call-log.js';
import { recordStoredArtifact } from '../storage/record-stored-artifact.js';
import { sha256Hex } from '../storage/sha256-hex.js';
import { makeSessionDir } from '../test-support/make-session-dir.js';
import { openSessionTranscript } from '../transcript/session-transcript.js';
import { createArtifactServer, type RunningArtifactServer } from './artifact-server.js';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
// CI installs Chromium, so there a missing browser fails the run instead of skipping it.
const runInCi = process.env.CI === 'true';
if (!available && !runInCi) {
  console.warn(
    `inspector-page.test: ${CHROMIUM} not found, skipping the browser test (apt-get install chromium)`,
  );
}
const screenshotDir = fileURLToPath(new URL('../../test-results/', import.meta.url));

const diff = [
  'diff --git a/src/app.ts b/src/app.ts',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  ...Array.from(
    { length: 400 },
    (_, i) => `@@ -${i * 10},3 +${i * 10},3 @@\n-const a${i} = 1;\n+const a${i} = 2;`,
  ),
].join('\n');
// Built as text so the 64-bit numbers are exactly what a JSON.parse round trip would change.
const json = `{"items":[${Array.from({ length: 300 }, (_, i) => `{"id":"9007199254740993${i}","n":1234567890123456789${i % 10},"ok":${i % 2 === 0},"tags":[]}`).join(',')}]}`;
const warnLog = Array.from({ length: 3000 }, (_, i) =>
  i % 40 === 7
    ? `2026-04-24T10:00:00Z WARN worker ${i} slow response`
    : `2026-04-24T10:00:00Z INFO worker ${i} ok`,
).join('\n');

// About 300 chars a line, as in an OpenStack log: 66 lines fill the page's 20 000 chars, not 100.
const novaLines = Array.from({ length: 2000 }, (_, i) =>
  `2017-05-16 00:00:${String(i % 60).padStart(2, '0')}.${String(i).padStart(4, '0')} 25746 INFO nova.compute.manager [req-${i}] line ${i + 1}${i === 39 ? ' marker-40' : ''} `.padEnd(
    300,
    '.',
  ),
);
// Line 41 is three pages wide: a match in it must open its window, not the lines above it.
const longLines = [
  ...Array.from({ length: 40 }, (_, i) => `short ${i + 1}`),
  `${'a'.repeat(50)}NEEDLE-EARLY${'b'.repeat(34_938)}NEEDLE-DEEP${'c'.repeat(24_989)}`,
  ...Array.from({ length: 20 }, (_, i) => `tail ${i + 42}`),
].join('\n');
// A few lines each longer than a page, as in canada.json.
const hugeLines = Array.from(
  { length: 8 },
  (_, i) =>
    `row ${i + 1}: `.padEnd(i === 7 ? 29_993 : 30_000, '-65.61,43.12 ') +
    (i === 7 ? 'THE END' : ''),
).join('\n');
// Line 151 of 200 is 300 000 code units long. Blocks of an odd length of surrogate pairs make
// some of its windows end a unit short of a page (no window splits a pair), so windows do not
// start every 20 000 columns.
const middleLine = [
  ...Array.from({ length: 150 }, (_, i) => `short ${i + 1}`),
  `y${'\u{1F600}'.repeat(3333)}`.repeat(44).padEnd(300_000, 'z'),
  ...Array.from({ length: 49 }, (_, i) => `after ${i + 152}`),
].join('\n');
// Starts with "[" but is no JSON.
const apacheLog = Array.from(
  { length: 500 },
  (_, i) =>
    `[Sun Dec 04 04:${String(i % 60).padStart(2, '0')}:44 2005] [error] mod_jk child workerEnv in error state ${i % 9}`,
).join('\n');

/** The artifact list's item whose text holds `text`. */
const artifactItem = (page: Page, text: string) =>
  page.getByTestId('artifacts').locator('li').filter({ hasText: text });

async function shot(page: Page, name: string) {
  await mkdir(screenshotDir, { recursive: true });
  const path = `${screenshotDir}${name}.png`;
  await page.screenshot({ path, fullPage: false });
  expect((await stat(path)).size).toBeGreaterThan(10_000);
}

describe.skipIf(!available && !runInCi)('inspector page in headless Chromium', () => {
  let root: string;
  let ids: { terminal: string; read: string };
  let server: RunningArtifactServer;
  let browser: Browser;
  const more: Record<string, string> = {};
  let jsonRecord: ArtifactRecord | undefined;

  beforeAll(async () => {
    ({ root, ids } = await makeSessionDir());
    let t = 1_750_000_000_000;
    const session = await openSessionTranscript({
      path: join(root, 'inspect.jsonl'),
      clock: () => (t += 60_000),
    });
    more.log = (
      await session.settleToolResult({
        toolName: 'terminal',
        toolCallId: 'c_log',
        args: { command: 'make' },
        output: warnLog,
      })
    ).artifact!.id;
    more.diff = (
      await session.settleToolResult({
        toolName: 'apply_patch',
        toolCallId: 'c_diff',
        output: diff,
      })
    ).artifact!.id;
    jsonRecord = (
      await session.settleToolResult({ toolName: 'fetch_api', toolCallId: 'c_json', output: json })
    ).artifact;
    more.json = jsonRecord!.id;
    // Stored with no tool name (as `compaction store` does): the kind comes from the content.
    const store = createArtifactStore({ dir: join(root, 'inspect.artifacts') });
    const stored = await store.store('cli-1', diff.replace(/a(\d)/g, 'b$1'));
    more.cliDiff = (
      await recordStoredArtifact({
        index: store.index,
        sessionId: 'inspect',
        stored,
        toolCallId: 'cli-1',
        preview: diff.slice(0, 400),
        clock: () => (t += 60_000),
      })
    ).id;
    const wide = await openSessionTranscript({
      path: join(root, 'wide.jsonl'),
      clock: () => (t += 60_000),
    });
    const settle = async (toolName: string, args: Record<string, unknown>, output: string) =>
      (await wide.settleToolResult({ toolName, toolCallId: `c_${toolName}_${t}`, args, output }))
        .artifact!.id;
    more.nova = await settle('terminal', { command: 'cat nova.log' }, novaLines.join('\n'));
    more.long = await settle('read_file', { path: 'long-lines.txt' }, longLines);
    more.huge = await settle('read_file', { path: 'canada.txt' }, hugeLines);
    more.apache = await settle('terminal', { command: 'cat error_log' }, apacheLog);
    more.middle = await settle('read_file', { path: 'middle-line.txt' }, middleLine);
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

  async function open(hash = '#token=tok-123') {
    const context = await browser.newContext({
      viewport: { width: 1400, height: 900 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}${hash}`);
    return { page, errors };
  }

  it('lists, opens with line numbers, pages first/next/last/tail, goes to a line', async () => {
    const { page, errors } = await open();
    await page.getByTestId('sessions').getByText('demo-session').click();
    const artifacts = page.getByTestId('artifacts');
    await expect.poll(() => artifacts.locator('li').count()).toBe(2);
    const terminal = artifacts.locator('li').filter({ hasText: 'terminal make test' });
    await expect.poll(() => terminal.textContent()).toContain('terminal_log');
    await terminal.locator('button').click();

    const content = page.getByTestId('content');
    await expect.poll(() => content.textContent()).toContain('line 1: step 0 ok ✓');
    expect(await page.getByTestId('artifact-title').textContent()).toBe('terminal make test');
    expect(await page.getByTestId('range').textContent()).toBe('lines 1–100 of 1200');
    expect(await content.locator('.row').first().locator('.ln').textContent()).toBe('1');

    await page.getByTestId('next').click();
    await expect.poll(() => page.getByTestId('range').textContent()).toBe('lines 101–200 of 1200');
    expect(await content.locator('.row[data-line="101"] .tx').textContent()).toBe(
      'line 101: step 100 ok ✓',
    );
    await page.getByTestId('last').click();
    await expect
      .poll(() => page.getByTestId('range').textContent())
      .toBe('lines 1101–1200 of 1200 (end)');
    expect(await page.getByTestId('next').isDisabled()).toBe(true);
    await page.getByTestId('first').click();
    await expect.poll(() => page.getByTestId('range').textContent()).toBe('lines 1–100 of 1200');
    await page.getByTestId('tail').click();
    await expect
      .poll(() => page.getByTestId('range').textContent())
      .toBe('lines 1101–1200 of 1200 (end)');

    await page.getByTestId('goto-line').fill('640');
    await page.getByTestId('goto').click();
    await expect.poll(() => content.locator('.row.hit').getAttribute('data-line')).toBe('640');
    expect(await content.locator('.row.hit .tx').textContent()).toBe('line 640: step 639 ok ✓');
    expect(await page.evaluate('location.hash')).toMatch(
      /^#session=demo-session&artifact=art_\w+&line=640$/,
    );
    await shot(page, 'inspector-goto-line');
    expect(errors).toEqual([]);
  });

  it('highlights a match and scrolls it into view, and pages past 50 matches', async () => {
    const { page, errors } = await open();
    await page.getByTestId('sessions').getByText('inspect').click();
    await artifactItem(page, 'terminal make').locator('button').click();
    await expect.poll(() => page.getByTestId('range').textContent()).toBe('lines 1–100 of 3000');
    await page.getByTestId('pattern').fill('WARN');
    await page.getByTestId('search').click();
    await expect.poll(() => page.getByTestId('match-count').textContent()).toBe('50+ matches');
    await page.getByTestId('more-matches').click();
    await expect.poll(() => page.getByTestId('match-count').textContent()).toBe('75 matches');
    expect(await page.getByTestId('more-matches').isHidden()).toBe(true);
    const last = page.getByTestId('match').last();
    expect(await last.textContent()).toBe(
      '2968:22: 2026-04-24T10:00:00Z WARN worker 2967 slow response',
    );
    await last.click();
    const mark = page.getByTestId('content').locator('.row.hit mark');
    await expect.poll(() => mark.textContent()).toBe('WARN');
    expect(await page.getByTestId('content').locator('.row.hit').getAttribute('data-line')).toBe(
      '2968',
    );
    // Scrolled into view inside the content box.
    const visible = await page.evaluate(`(() => {
      const box = document.getElementById('content').getBoundingClientRect();
      const hit = document.querySelector('#content .row.hit').getBoundingClientRect();
      return hit.top >= box.top && hit.bottom <= box.bottom;
    })()`);
    expect(visible).toBe(true);
    expect(await page.getByTestId('content').locator('.row.lvl-warn').count()).toBeGreaterThan(0);
    await shot(page, 'inspector-search-highlight');
    expect(errors).toEqual([]);
  });

  it('filters and sorts by tool, kind and time, shows diff kinds, and links each artifact', async () => {
    const { page, errors } = await open();
    await page.getByTestId('sessions').getByText('inspect').click();
    const items = page.getByTestId('artifacts').locator('li');
    await expect.poll(() => items.count()).toBe(4);
    // Newest first by default.
    expect(await items.first().textContent()).toContain('cli-1');
    expect(await page.getByTestId('kind').allTextContents()).toEqual([
      'diff',
      'tool_output',
      'diff',
      'terminal_log',
    ]);
    await page.getByTestId('sort').selectOption('oldest');
    expect(await items.first().textContent()).toContain('terminal make');
    await page.getByTestId('filter-kind').selectOption('diff');
    await expect.poll(() => items.count()).toBe(2);
    await page.getByTestId('filter-kind').selectOption('');
    await page.getByTestId('filter-tool').selectOption('apply_patch');
    await expect.poll(() => items.count()).toBe(1);
    await page.getByTestId('filter-tool').selectOption('');
    await page.getByTestId('filter-age').selectOption('3600000');
    await expect.poll(() => items.count()).toBe(0);
    await page.getByTestId('filter-age').selectOption('');
    await page.getByTestId('sort').selectOption('largest');
    await expect.poll(() => items.count()).toBe(4);
    const href = await items
      .filter({ hasText: 'apply_patch' })
      .getByTestId('artifact-link')
      .getAttribute('href');
    expect(href).toBe(`#session=inspect&artifact=${more.diff}`);
    await items.filter({ hasText: 'apply_patch' }).locator('button').click();
    await expect
      .poll(() => page.getByTestId('content').locator('.row.add').count())
      .toBeGreaterThan(10);
    expect(await page.getByTestId('content').locator('.row.del').count()).toBeGreaterThan(10);
    await shot(page, 'inspector-diff');

    // The link opens the artifact in a fresh page (the token is kept in sessionStorage only).
    const fresh = await open(`${href}&line=3`);
    await fresh.page.getByTestId('token').fill('tok-123');
    await fresh.page.getByTestId('token-save').click();
    await expect
      .poll(() => fresh.page.getByTestId('artifact-title').textContent())
      .toBe('apply_patch (1 files)');
    expect(
      await fresh.page.getByTestId('content').locator('.row.hit').getAttribute('data-line'),
    ).toBe('3');
    expect(errors).toEqual([]);
  });

  it('pretty-prints JSON without touching its numbers, and downloads the raw bytes', async () => {
    const { page, errors } = await open();
    await page.getByTestId('sessions').getByText('inspect').click();
    await artifactItem(page, 'fetch_api').locator('button').click();
    // Stored one value per line (issue 43, item 19), so it pages by line from the start.
    await expect
      .poll(() => page.getByTestId('range').textContent())
      .toMatch(/^lines 1–100 of \d+$/);
    expect(await page.getByTestId('pretty').isVisible()).toBe(true);
    await page.getByTestId('pretty').check();
    await expect
      .poll(() => page.getByTestId('range').textContent())
      .toMatch(/^pretty JSON lines 1–100 of \d+$/);
    const text = await page.getByTestId('content').textContent();
    expect(text).toContain('"id": "90071992547409930"');
    expect(text).toContain('"n": 12345678901234567890');
    await shot(page, 'inspector-pretty-json');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('download').click(),
    ]);
    const path = await download.path();
    // The stored bytes, which the marker and the record name; laid out, the result as returned.
    const raw = await readFile(path);
    expect(sha256Hex(raw)).toBe(jsonRecord!.digest);
    expect(restoreJsonLayout(raw.toString('utf8'))).toBe(json);
    expect(jsonRecord!.original?.digest).toBe(sha256Hex(json));
    expect(download.suggestedFilename()).toMatch(/^c_json-[0-9a-f]{16}\.txt$/);
    expect(errors).toEqual([]);
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
    const { page, errors } = await open();
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
    await shot(page, 'inspector-model-calls');
    await page.getByTestId('tab-artifacts').click();
    await expect.poll(() => page.getByTestId('artifacts').locator('li').count()).toBe(2);
    expect(errors).toEqual([]);
    expect(ids.read).toMatch(/^art_/);
  });

  it('shows the error instead of data when the token is wrong, and takes a token typed in', async () => {
    const { page } = await open('#token=wrong');
    await expect
      .poll(() => page.locator('#status').textContent())
      .toContain('missing or wrong bearer token');
    expect(await page.getByTestId('sessions').locator('li').count()).toBe(0);
    await page.getByTestId('token').fill('tok-123');
    await page.getByTestId('token-save').click();
    await expect.poll(() => page.getByTestId('sessions').locator('li').count()).toBe(3);
  });

  const range = (page: Page) => page.getByTestId('range').textContent();
  async function openWide(page: Page, title: string) {
    await page.getByTestId('sessions').getByText('wide').click();
    await artifactItem(page, title).locator('button').click();
    await expect.poll(() => page.getByTestId('artifact-title').textContent()).toBe(title);
  }
  async function search(page: Page, pattern: string, count: string) {
    await page.getByTestId('pattern').fill(pattern);
    await page.getByTestId('search').click();
    await expect.poll(() => page.getByTestId('match-count').textContent()).toBe(count);
  }
  // The mark with four code units either side.
  const markedWith = (page: Page) =>
    page.evaluate(`(() => {
      const mark = document.querySelector('#content .row.hit mark');
      return mark.previousSibling.textContent.slice(-4) + '[' + mark.textContent + ']' + mark.nextSibling.textContent.slice(0, 4);
    })()`);
  const markInView = (page: Page) =>
    page.evaluate(`(() => {
      const box = document.getElementById('content').getBoundingClientRect();
      const mark = document.querySelector('#content .row.hit mark').getBoundingClientRect();
      return mark.top >= box.top && mark.bottom <= box.bottom;
    })()`);

  it('opens a match in a long line at its window, and a match in a short line with the lines above', async () => {
    const { page, errors } = await open();
    await openWide(page, 'read_file long-lines.txt');
    await expect.poll(() => range(page)).toBe('lines 1–40 of 61');
    const content = page.getByTestId('content');
    const mark = content.locator('.row.hit mark');

    await search(page, 'needle', '2 matches');
    await page
      .getByTestId('match')
      .filter({ hasText: /^41:35001: / })
      .click();
    await expect.poll(() => range(page)).toBe('line 41, columns 34801–54800 of 60000 (long line)');
    expect(await markedWith(page)).toBe('bbbb[NEEDLE]-DEE');
    expect(await content.locator('.row').first().locator('.ln').textContent()).toBe('41:34801');
    expect(await markInView(page)).toBe(true);
    await shot(page, 'inspector-long-line-match');

    await search(page, 'short 30', '1 matches');
    await page.getByTestId('match').click();
    await expect.poll(() => mark.textContent()).toBe('short 30');
    expect(await content.locator('.row.hit').getAttribute('data-line')).toBe('30');
    expect(await content.locator('.row').first().getAttribute('data-line')).toBe('20');

    // From a page of whole lines, a match early in the long line opens the line's first window.
    await search(page, 'needle', '2 matches');
    await page
      .getByTestId('match')
      .filter({ hasText: /^41:51: / })
      .click();
    await expect.poll(() => range(page)).toBe('line 41, columns 1–20000 of 60000 (long line)');
    expect(await markedWith(page)).toBe('aaaa[NEEDLE]-EAR');
    expect(await markInView(page)).toBe(true);
    // Paging on through the line marks nothing where the match is not.
    await page.getByTestId('next').click();
    await expect.poll(() => range(page)).toBe('line 41, columns 20001–40000 of 60000 (long line)');
    expect(await content.locator('mark').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('shows the end on Tail and Last, and the line asked for on Go to line, when lines are long', async () => {
    const { page, errors } = await open();
    await openWide(page, 'terminal cat nova.log');
    const content = page.getByTestId('content');
    // 66 lines of 300 chars fill a page: those are the last that fit.
    await page.getByTestId('tail').click();
    await expect.poll(() => range(page)).toBe('lines 1935–2000 of 2000 (end)');
    expect(await content.locator('.row').last().getAttribute('data-line')).toBe('2000');
    await page.getByTestId('first').click();
    await expect.poll(() => range(page)).toBe('lines 1–66 of 2000');
    await page.getByTestId('last').click();
    await expect.poll(() => range(page)).toBe('lines 1935–2000 of 2000 (end)');
    expect(await page.getByTestId('next').isDisabled()).toBe(true);
    await shot(page, 'inspector-tail-long-lines');

    await openWide(page, 'read_file canada.txt');
    await expect.poll(() => range(page)).toBe('line 1, columns 1–20000 of 30000 (long line)');
    await page.getByTestId('tail').click();
    await expect
      .poll(() => range(page))
      .toMatch(/^line 8, columns \d+–30000 of 30000 \(long line\)$/);
    expect(await content.textContent()).toMatch(/THE END$/);
    expect(await page.getByTestId('next').isDisabled()).toBe(true);
    await page.getByTestId('first').click();
    await expect.poll(() => range(page)).toBe('line 1, columns 1–20000 of 30000 (long line)');
    await page.getByTestId('last').click();
    await expect
      .poll(() => range(page))
      .toMatch(/^line 8, columns \d+–30000 of 30000 \(long line\)$/);
    await shot(page, 'inspector-tail-huge-line');
    for (const line of ['8', '3']) {
      await page.getByTestId('goto-line').fill(line);
      await page.getByTestId('goto').click();
      await expect
        .poll(() => range(page))
        .toBe(`line ${line}, columns 1–20000 of 30000 (long line)`);
      expect(await content.locator('.row.hit').getAttribute('data-line')).toBe(line);
    }
    expect(errors).toEqual([]);
  });

  it('goes back by Previous exactly where Next came from, in a long line and in the lines around it', async () => {
    const { page, errors } = await open();
    await openWide(page, 'read_file middle-line.txt');
    await expect.poll(() => range(page)).toBe('lines 1–100 of 200');
    const content = page.getByTestId('content');
    // A view: its range, the number (and column) of its first row, and a digest of its text.
    const view = async () =>
      [
        await range(page),
        await content.locator('.row').first().locator('.ln').textContent(),
        sha256Hex((await content.textContent()) ?? ''),
      ] as const;
    const click = async (button: 'next' | 'prev') => {
      const before = await range(page);
      await page.getByTestId(button).click();
      await expect.poll(() => range(page)).not.toBe(before);
    };
    const views = [await view()];
    for (let i = 0; i < 4; i++) {
      await click('next');
      views.push(await view());
    }
    expect(views.map(([shown, first]) => `${first} | ${shown}`)).toEqual([
      '1 | lines 1–100 of 200',
      '101 | lines 101–150 of 200',
      '151 | line 151, columns 1–19999 of 300000 (long line)',
      '151:20000 | line 151, columns 20000–39998 of 300000 (long line)',
      '151:39999 | line 151, columns 39999–59997 of 300000 (long line)',
    ]);
    for (let i = 3; i >= 0; i--) {
      await click('prev');
      expect(await view()).toEqual(views[i]);
    }
    expect(await page.getByTestId('prev').isDisabled()).toBe(true);

    // Without a page to go back to, Previous shows the columns just before the window, and
    // from the line after the long line, the long line's last window.
    await page.getByTestId('goto-line').fill('152');
    await page.getByTestId('goto').click();
    await expect.poll(() => range(page)).toBe('lines 152–200 of 200 (end)');
    const after = await view();
    await click('prev');
    expect(await range(page)).toBe('line 151, columns 280003–300000 of 300000 (long line)');
    expect(await content.textContent()).toMatch(/^151:280003\u{1F600}.*\u{1F600}z{6652}$/u);
    const last = await view();
    await click('prev');
    // 20 001 units: the window's first column, 260 003, is the second half of a pair.
    expect(await range(page)).toBe('line 151, columns 260002–280002 of 300000 (long line)');
    await shot(page, 'inspector-previous-long-line');
    await click('next');
    expect(await view()).toEqual(last);
    await click('next');
    expect(await view()).toEqual(after);
    // Opened afresh at the long line, Previous shows the 100 lines before it.
    await openWide(page, 'read_file middle-line.txt');
    await page.getByTestId('goto-line').fill('151');
    await page.getByTestId('goto').click();
    await expect.poll(() => range(page)).toBe('line 151, columns 1–19999 of 300000 (long line)');
    await click('prev');
    expect(await range(page)).toBe('lines 51–150 of 200');
    await click('prev');
    expect(await range(page)).toBe('lines 1–50 of 200');

    // Pages of whole lines that fill with characters before 100 lines: 66 lines of 300.
    await openWide(page, 'terminal cat nova.log');
    await expect.poll(() => range(page)).toBe('lines 1–66 of 2000');
    const nova = [await view()];
    for (let i = 0; i < 3; i++) {
      await click('next');
      nova.push(await view());
    }
    expect(nova.map(([shown]) => shown)).toEqual([
      'lines 1–66 of 2000',
      'lines 67–132 of 2000',
      'lines 133–198 of 2000',
      'lines 199–264 of 2000',
    ]);
    for (let i = 2; i >= 0; i--) {
      await click('prev');
      expect(await view()).toEqual(nova[i]);
    }
    // From a line gone to, Previous shows the lines just before it that fit a page.
    await page.getByTestId('goto-line').fill('1000');
    await page.getByTestId('goto').click();
    await expect.poll(() => range(page)).toBe('lines 990–1055 of 2000');
    await click('prev');
    expect(await range(page)).toBe('lines 924–989 of 2000');
    expect(errors).toEqual([]);
  });

  it('keeps the target line in the URL across reloads, and follows links in the same tab', async () => {
    const link = (id: string, rest = '') => `#session=wide&artifact=${id}${rest}`;
    const { page, errors } = await open(
      `#token=tok-123&session=wide&artifact=${more.nova}&line=500`,
    );
    const hit = page.getByTestId('content').locator('.row.hit');
    await expect.poll(() => hit.getAttribute('data-line')).toBe('500');
    expect(await page.evaluate('location.hash')).toBe(link(more.nova!, '&line=500'));
    for (let i = 0; i < 2; i++) {
      await page.reload();
      await expect.poll(() => hit.getAttribute('data-line')).toBe('500');
      expect(await page.evaluate('location.hash')).toBe(link(more.nova!, '&line=500'));
    }
    await page.getByTestId('goto-line').fill('1234');
    await page.getByTestId('goto').click();
    await expect.poll(() => hit.getAttribute('data-line')).toBe('1234');
    expect(await page.evaluate('location.hash')).toBe(link(more.nova!, '&line=1234'));

    await search(page, 'marker-40', '1 matches');
    await page.getByTestId('match').click();
    await expect.poll(() => hit.getAttribute('data-line')).toBe('40');
    const column = novaLines[39]!.indexOf('marker-40') + 1;
    expect(await page.evaluate('location.hash')).toBe(
      link(more.nova!, `&line=40&column=${column}`),
    );

    // A link pasted into the same tab, then the link of another artifact.
    await page.evaluate(`location.hash = ${JSON.stringify(link(more.nova!, '&line=1500'))}`);
    await expect.poll(() => hit.getAttribute('data-line')).toBe('1500');
    await artifactItem(page, 'read_file canada.txt').getByTestId('artifact-link').click();
    await expect
      .poll(() => page.getByTestId('artifact-title').textContent())
      .toBe('read_file canada.txt');
    expect(
      await artifactItem(page, 'read_file canada.txt')
        .locator('button')
        .getAttribute('aria-current'),
    ).toBe('true');
    await expect.poll(() => range(page)).toBe('line 1, columns 1–20000 of 30000 (long line)');
    await page.evaluate(`location.hash = ${JSON.stringify(link(more.huge!, '&line=8'))}`);
    await expect.poll(() => hit.getAttribute('data-line')).toBe('8');
    expect(errors).toEqual([]);
  });

  it('offers pretty JSON only for JSON, not for a log that starts with "["', async () => {
    const { page, errors } = await open();
    await openWide(page, 'terminal cat error_log');
    await expect.poll(() => range(page)).toBe('lines 1–100 of 500');
    expect(await page.getByTestId('pretty').isVisible()).toBe(false);
    await page.getByTestId('sessions').getByText('inspect').click();
    await artifactItem(page, 'fetch_api').locator('button').click();
    await expect.poll(() => page.getByTestId('pretty').isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });
});
