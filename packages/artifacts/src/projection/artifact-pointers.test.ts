import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createArtifactLibrary } from '../reading/artifact-library.js';
import { createArtifactToolHandler } from '../reading/artifact-tools.js';
import { createArtifactServer } from '../serving/artifact-server.js';
import { artifactDirFor } from '../storage/artifact-dir-for.js';
import { createArtifactIndex } from '../storage/artifact-index.js';
import type { ArtifactRecord } from '../storage/artifact-record.js';
import { createArtifactStore } from '../storage/artifact-store.js';
import { sha256Hex } from '../storage/sha256-hex.js';
import { openSessionTranscript } from '../transcript/session-transcript.js';
import { createArtifactProcessor } from './create-artifact-processor.js';
import { parseExcerptMarker } from './excerpt-marker.js';
import { externalizeToolOutput } from './externalize-tool-output.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'pointers-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function markerOf(content: string) {
  const line = content.split('\n').find((candidate) => candidate.startsWith('[... elided'));
  return line === undefined ? undefined : parseExcerptMarker(line);
}

async function rawBytes(
  library: ReturnType<typeof createArtifactLibrary>,
  ref: string,
  sessionId?: string,
) {
  const raw = await library.openRaw(ref, sessionId === undefined ? {} : { sessionId });
  try {
    return await raw.handle.readFile();
  } finally {
    await raw.handle.close();
  }
}

const bigLog = (tag: string, lines = 1500) =>
  Array.from({ length: lines }, (_, i) => `${tag} line ${i + 1} ✓`).join('\n');

describe('issue 13: every artifact pointer can be followed', () => {
  it('1. regex search is linear: catastrophic patterns finish and whole lines are tested', async () => {
    const session = await openSessionTranscript({ path: join(root, 's.jsonl') });
    const evilLine = `${'a'.repeat(34)}!`;
    const longLine = `${'x'.repeat(10_000)} needle-at-the-end`;
    const output = [...Array.from({ length: 500 }, () => evilLine), longLine, 'tail aaaa'].join(
      '\n',
    );
    const { artifact } = await session.settleToolResult({
      toolName: 'terminal',
      toolCallId: 'c1',
      output,
    });
    const library = createArtifactLibrary({ root });
    for (const pattern of ['(a|a)+$', '((a+))+$', '(\\w|[a-z])+$', '(a|aa)+$', '.*.*.*.*x']) {
      const result = await library.search(artifact!.id, pattern, { regex: true, maxMatches: 500 });
      expect(result.stoppedBy, pattern).toBeUndefined();
      // Line 501 ends in a word, so `(\w|[a-z])+$` matches it too; `x` is only on line 501.
      const expected =
        pattern === '.*.*.*.*x' ? [501] : pattern.startsWith('(\\w') ? [501, 502] : [502];
      expect(
        result.matches.map((match) => match.line),
        pattern,
      ).toEqual(expected);
    }
    // A literal and a regex far past the first 4096 chars of a line.
    const literal = await library.search(artifact!.id, 'needle-at-the-end');
    expect(literal.matches).toEqual([
      expect.objectContaining({ line: 501, column: 10_002, length: 17 }),
    ]);
    const anchored = await library.search(artifact!.id, 'needle-at-the-end$', { regex: true });
    expect(anchored.matches.map((match) => match.line)).toEqual([501]);
  });

  it('1. a search stops at its time budget and says where to go on', async () => {
    const session = await openSessionTranscript({ path: join(root, 's.jsonl') });
    const { artifact } = await session.settleToolResult({
      toolName: 'terminal',
      toolCallId: 'c1',
      // Several MiB: a literal search looks at the clock between 1 MiB chunks of raw bytes.
      output: bigLog('row', 150_000),
    });
    let t = 0;
    const library = createArtifactLibrary({ root, searchTimeMs: 2, now: () => (t += 1) });
    const result = await library.search(artifact!.id, 'no such text');
    expect(result).toMatchObject({ more: true, stoppedBy: 'time', matches: [] });
    expect(result.next!.line).toBeGreaterThan(1);
    expect(result.next!.line).toBeLessThan(150_000);
    const tools = createArtifactToolHandler({ library });
    expect(await tools.call('artifact_search', { id: artifact!.id, pattern: 'zzz' })).toMatch(
      /stopped by the time budget at line \d+ of 150000; search again with from_line=\d+/,
    );
  });

  it('1b. a search whose budget is spent before it starts still moves on, so following next ends', async () => {
    const session = await openSessionTranscript({ path: join(root, 's.jsonl') });
    const { artifact } = await session.settleToolResult({
      toolName: 'terminal',
      toolCallId: 'c1',
      output: bigLog('row', 300),
    });
    // Every clock read is past the deadline (opening and indexing took the whole budget).
    let t = 0;
    const library = createArtifactLibrary({ root, searchTimeMs: 1, now: () => (t += 1000) });
    let from = { line: 1, column: 1 };
    let calls = 0;
    for (;;) {
      const result = await library.search(artifact!.id, 'row 299', {
        fromLine: from.line,
        fromColumn: from.column,
      });
      calls++;
      if (result.matches.length > 0 || !result.next) break;
      expect(result.next.line > from.line || result.next.column > from.column).toBe(true);
      from = result.next;
    }
    expect(calls).toBeLessThanOrEqual(300);
  });

  it('1c. a search resumed inside a line sees the character before it: paging finds what one search finds', async () => {
    const session = await openSessionTranscript({ path: join(root, 's.jsonl') });
    const lines = Array.from({ length: 400 }, (_, i) =>
      i % 3 === 0 ? `running job ${i}, then loading` : `xfoo ${i} foo x`,
    );
    const { artifact } = await session.settleToolResult({
      toolName: 'terminal',
      toolCallId: 'c1',
      output: `${lines.join('\n')}\n`,
    });
    const library = createArtifactLibrary({ root });
    for (const pattern of ['\\Bing', '\\bfoo', '^x', 'ing\\b']) {
      const all = await library.search(artifact!.id, pattern, { regex: true, maxMatches: 500 });
      const paged: Array<[number, number]> = [];
      let from: { line: number; column: number } | null = { line: 1, column: 1 };
      while (from) {
        const page = await library.search(artifact!.id, pattern, {
          regex: true,
          maxMatches: 1,
          fromLine: from.line,
          fromColumn: from.column,
        });
        for (const match of page.matches) paged.push([match.line, match.column]);
        from = page.next;
      }
      expect(paged).toEqual(all.matches.map((match) => [match.line, match.column]));
      expect(paged.length).toBeGreaterThan(100);
    }
  });

  it('2. a reused operation id never overwrites: each artifact id reads its own bytes', async () => {
    const session = await openSessionTranscript({ path: join(root, 's.jsonl') });
    const a = await session.settleToolResult({
      toolName: 'terminal',
      toolCallId: 'call_0',
      output: bigLog('first'),
    });
    const b = await session.settleToolResult({
      toolName: 'terminal',
      toolCallId: 'call_0',
      output: bigLog('second'),
    });
    expect(a.artifact!.id).not.toBe(b.artifact!.id);
    const library = createArtifactLibrary({ root });
    for (const [settled, tag] of [
      [a, 'first'],
      [b, 'second'],
    ] as const) {
      const bytes = await rawBytes(library, settled.artifact!.id);
      expect(sha256Hex(bytes)).toBe(markerOf(settled.content)!.digest);
      expect((await library.readPage(settled.artifact!.id, { limit: 1 })).text).toBe(
        `${tag} line 1 ✓\n`,
      );
      expect(sha256Hex(await rawBytes(library, markerOf(settled.content)!.file!))).toBe(
        markerOf(settled.content)!.digest,
      );
    }
    await expect(library.readPage('call_0')).rejects.toMatchObject({ code: 'artifact_ambiguous' });
  });

  it('2b. a file name two sessions share is ambiguous, with each id and session named; a session settles it', async () => {
    // The same tool-call id and bytes in two sessions make the same file name in each.
    const output = bigLog('shared');
    const settled = [];
    for (const name of ['monday', 'tuesday']) {
      const session = await openSessionTranscript({ path: join(root, `${name}.jsonl`) });
      settled.push(
        await session.settleToolResult({ toolName: 'terminal', toolCallId: 'call_9', output }),
      );
    }
    const file = markerOf(settled[0]!.content)!.file!;
    expect(markerOf(settled[1]!.content)!.file).toBe(file);
    const library = createArtifactLibrary({ root });
    const error = await library.readPage(file).catch((failure: unknown) => failure);
    expect(error).toMatchObject({ code: 'artifact_ambiguous' });
    const message = (error as Error).message;
    for (const [i, session] of ['monday', 'tuesday'].entries()) {
      expect(message).toContain(`${settled[i]!.artifact!.id} (session "${session}"`);
    }
    expect(message).toMatch(/pass the artifact id, or the session/);
    const page = await library.readPage(file, { sessionId: 'tuesday', limit: 1 });
    expect(page.text).toBe('shared line 1 ✓\n');
  });

  it('2c. a forged index line naming the index itself is not an artifact', async () => {
    const session = await openSessionTranscript({ path: join(root, 'forged.jsonl') });
    await session.settleToolResult({ toolName: 'terminal', toolCallId: 'c1', output: bigLog('x') });
    const dir = artifactDirFor(join(root, 'forged.jsonl'));
    const forged = {
      id: 'art_000000000000000000000000',
      sessionId: 'forged',
      toolCallId: 'c2',
      toolName: 'terminal',
      path: 'index.jsonl',
      kind: 'terminal_log',
      title: 'forged',
      bytes: 1,
      digest: '0'.repeat(64),
      createdAt: 1,
    };
    await writeFile(join(dir, 'index.jsonl'), `${JSON.stringify(forged)}\n`, { flag: 'a' });
    const library = createArtifactLibrary({ root });
    for (const ref of [forged.id, 'index.jsonl']) {
      await expect(library.readPage(ref)).rejects.toMatchObject({ code: 'artifact_not_found' });
    }
  });

  it('3. tool-call ids of any shape settle, are stored and resolve', async () => {
    const session = await openSessionTranscript({ path: join(root, 's.jsonl') });
    const library = createArtifactLibrary({ root });
    for (const id of [
      'functions.bash:0',
      'call|abc',
      'toolu_01A/B',
      'x'.repeat(300),
      '../../etc/passwd',
      '',
    ]) {
      const settled = await session.settleToolResult({
        toolName: 'terminal',
        toolCallId: id,
        output: bigLog(`id ${id.length}`),
      });
      expect(settled.artifact, JSON.stringify(id)).toBeDefined();
      expect(settled.content).toContain(`artifact_read("${settled.artifact!.id}"`);
      const record = await library.find(settled.artifact!.id);
      expect(record?.toolCallId).toBe(id);
      if (id) expect((await library.find(id))?.id).toBe(settled.artifact!.id);
      expect(sha256Hex(await rawBytes(library, settled.artifact!.id))).toBe(
        markerOf(settled.content)!.digest,
      );
    }
    expect(
      await createArtifactIndex({ dir: artifactDirFor(join(root, 's.jsonl')) }).list(),
    ).toHaveLength(6);
  });

  it('4. transcripts with spaces, colons and accents are listed and their artifacts read', async () => {
    const names = ['my run', '2026-04-24T10:00:00', 'résumé', '日本語 ログ'];
    const ids: Record<string, string> = {};
    for (const name of names) {
      const session = await openSessionTranscript({ path: join(root, `${name}.jsonl`) });
      ids[name] = (
        await session.settleToolResult({
          toolName: 'terminal',
          toolCallId: 'c',
          output: bigLog(name),
        })
      ).artifact!.id;
    }
    const library = createArtifactLibrary({ root });
    expect(await library.sessions()).toEqual([...names].sort());
    for (const name of names) {
      const tools = createArtifactToolHandler({ library, sessionId: name });
      expect(await tools.call('artifact_read', { id: ids[name], limit: 1 })).toContain(
        `${name} line 1 ✓`,
      );
      expect((await library.list(name)).map((record) => record.id)).toEqual([ids[name]]);
    }
    // The same name in the other Unicode normal form.
    expect(await library.list('résumé'.normalize('NFD'))).toHaveLength(1);
  });

  it('5. moving or renaming a transcript with its .artifacts/ keeps every read working', async () => {
    const first = join(root, 'a', 'run.jsonl');
    await mkdir(join(root, 'a'));
    const session = await openSessionTranscript({ path: first });
    const settled = await session.settleToolResult({
      toolName: 'terminal',
      toolCallId: 'c1',
      output: bigLog('moved'),
    });
    const library = createArtifactLibrary({ root: join(root, 'a') });
    expect((await library.readPage(settled.artifact!.id, { limit: 1 })).text).toBe(
      'moved line 1 ✓\n',
    );
    // Renamed in place, while the library is open.
    await rename(first, join(root, 'a', 'renamed.jsonl'));
    await rename(artifactDirFor(first), join(root, 'a', 'renamed.artifacts'));
    const page = await library.readPage(settled.artifact!.id, { limit: 1 });
    expect(page).toMatchObject({ sessionId: 'renamed', text: 'moved line 1 ✓\n' });
    // Moved to another directory.
    await rename(join(root, 'a'), join(root, 'b'));
    const moved = createArtifactLibrary({ root: join(root, 'b') });
    const tools = createArtifactToolHandler({ library: moved, sessionId: 'renamed' });
    expect(
      await tools.call('artifact_read', { id: settled.artifact!.id, offset: 2, limit: 1 }),
    ).toContain('moved line 2 ✓');
    expect(
      await tools.call('artifact_read', { id: markerOf(settled.content)!.file!, offset: -1 }),
    ).toContain('moved line 1500 ✓');
  });

  it('6. search and read number lines the same way, from 1', async () => {
    const session = await openSessionTranscript({ path: join(root, 's.jsonl') });
    const { artifact } = await session.settleToolResult({
      toolName: 'terminal',
      toolCallId: 'c',
      output: bigLog('n', 3000),
    });
    const library = createArtifactLibrary({ root });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 3000 }), async (n) => {
        const found = await library.search(artifact!.id, `n line ${n} ✓`, { caseSensitive: true });
        expect(found.matches.map((match) => match.line)).toEqual([n]);
        const page = await library.readPage(artifact!.id, {
          offset: found.matches[0]!.line,
          limit: 1,
        });
        expect(page.text.replace(/\n$/, '')).toBe(`n line ${n} ✓`);
        expect(page).toMatchObject({ line: n, count: 1, totalLines: 3000 });
      }),
      { numRuns: 40 },
    );
  });

  it('7. a 2 MB one-line JSON is paged in windows that cover it exactly and never split a code point', async () => {
    const items = Array.from({ length: 12_000 }, (_, i) => ({
      id: i,
      name: `item-${i}`,
      tag: i % 97 === 0 ? '🚀x' : 'é',
    }));
    const json = JSON.stringify({ items, marker: 'THE-END' });
    expect(json.length).toBeGreaterThan(400_000);
    const big = json + json.slice(1).repeat(4);
    const session = await openSessionTranscript({ path: join(root, 's.jsonl') });
    const { artifact } = await session.settleToolResult({
      toolName: 'fetch_api',
      toolCallId: 'c',
      output: big,
    });
    const library = createArtifactLibrary({ root });
    let text = '';
    let next: { line: number; column: number } | null = { line: 1, column: 1 };
    let pages = 0;
    while (next) {
      const page = await library.readPage(artifact!.id, {
        offset: next.line,
        column: next.column,
        maxChars: 99_999,
      });
      expect(page.window?.from).toBe(next.column);
      expect(page.window?.lineChars).toBe(big.length);
      const last = page.text.charCodeAt(page.text.length - 1);
      expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
      const first = page.text.charCodeAt(0);
      expect(first >= 0xdc00 && first <= 0xdfff).toBe(false);
      text += page.text;
      next = page.next;
      pages++;
    }
    expect(text).toBe(big);
    expect(pages).toBe(
      Math.ceil(big.length / 99_999) + (pages > Math.ceil(big.length / 99_999) ? 1 : 0),
    );
    // Search reports the match, with the column to read it at.
    const found = await library.search(artifact!.id, 'THE-END', { maxMatches: 500 });
    expect(found.matches).toHaveLength(5);
    for (const match of found.matches) {
      expect(match.text).toContain('THE-END');
      const at = await library.readPage(artifact!.id, {
        offset: match.line,
        column: match.column,
        maxChars: 7,
      });
      expect(at.text).toBe('THE-END');
    }
    const tools = createArtifactToolHandler({ library });
    expect(await tools.call('artifact_read', { id: artifact!.id })).toMatch(
      new RegExp(
        `line 1 of 1, columns 1-20000 of ${big.length} \\(a long line, shown in windows\\); next: offset=1 column=20001\\]`,
      ),
    );
  });

  it('7b. windows of one unit move past a surrogate pair (the pair whole) and cover the text', async () => {
    // A window of 1 at a pair used to be empty with `next` at the same place: a reader
    // following `next` never finished.
    const line = 'a🚀b💥\r';
    const session = await openSessionTranscript({ path: join(root, 'one.jsonl') });
    const { artifact } = await session.settleToolResult({
      toolName: 'fetch_api',
      toolCallId: 'one',
      output: `${line}\nc\n${'x'.repeat(5000)}`,
    });
    const library = createArtifactLibrary({ root });
    let text = '';
    let next: { line: number; column: number } | null = { line: 1, column: 1 };
    for (let pages = 0; next && next.line === 1; pages++) {
      expect(pages).toBeLessThan(20);
      const page = await library.readPage(artifact!.id, {
        offset: next.line,
        column: next.column,
        maxChars: 1,
      });
      expect(page.text.length).toBeGreaterThan(0);
      expect(page.text).not.toMatch(
        /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/,
      );
      text += page.text;
      next = page.next;
    }
    expect(text).toBe(`${line}\n`);
  });

  it("7c. a CRLF line's length leaves out its \\r, in a window of a long line and of a short one", async () => {
    const long = `${'x'.repeat(150_000)}END`;
    const output = `short line\r\n${long}\r\ntail\r\n`;
    const session = await openSessionTranscript({ path: join(root, 's.jsonl') });
    const { artifact } = await session.settleToolResult({ toolName: 't', toolCallId: 'c', output });
    const library = createArtifactLibrary({ root });
    const window = await library.readPage(artifact!.id, { offset: 2, maxChars: 50_000 });
    expect(window.window).toEqual({ line: 2, from: 1, to: 50_000, lineChars: long.length });
    const short = await library.readPage(artifact!.id, { offset: 1, column: 7 });
    expect(short.window).toEqual({ line: 1, from: 7, to: 10, lineChars: 10 });
    const found = await library.search(artifact!.id, 'END');
    expect(found.matches[0]).toMatchObject({ line: 2, column: long.length - 2 });
    const last = await library.readPage(artifact!.id, {
      offset: 2,
      column: long.length - 2,
      maxChars: 50_000,
    });
    expect(last.text).toBe('END\r\ntail\r\n');
    expect(last.window).toEqual({
      line: 2,
      from: long.length - 2,
      to: long.length,
      lineChars: long.length,
    });
  });

  it('7d. windows that end just before a line ending take it, so no page starts at a CR; a column past the end is refused', async () => {
    const session = await openSessionTranscript({ path: join(root, 's.jsonl') });
    const library = createArtifactLibrary({ root });
    for (const eol of ['\n', '\r\n']) {
      for (const width of [4, 5, 6]) {
        const output = `${'filler line\n'.repeat(400)}ab${eol}${'x'.repeat(width)}${eol}tail${eol}`;
        const { artifact } = await session.settleToolResult({
          toolName: 't',
          toolCallId: `c${width}-${eol.length}`,
          output,
        });
        let text = '';
        let next: { line: number; column: number } | null = { line: 400, column: 1 };
        while (next) {
          const page = await library.readPage(artifact!.id, {
            offset: next.line,
            column: next.column,
            maxChars: 5,
            limit: 1,
          });
          if (page.window) expect(page.window.to).toBeGreaterThanOrEqual(page.window.from);
          text += page.text;
          next = page.next;
        }
        expect(text).toBe(output.slice(output.indexOf('filler line\nab')));
        for (const column of [3, 5]) {
          await expect(
            library.readPage(artifact!.id, { offset: 401, column }),
          ).rejects.toMatchObject({ code: 'artifact_invalid_argument' });
        }
      }
    }
  });

  it('8. the processor (AI SDK artifact mode) writes the same record, id and hint as a transcript', async () => {
    const store = createArtifactStore({ transcriptPath: join(root, 'chat.jsonl') });
    const processor = createArtifactProcessor({ store, clock: () => 7 });
    const result = bigLog('sdk', 4000);
    const { text, metadata } = await processor.process(result, 4000, {
      stepId: 'call_1',
      toolName: 'bash',
    });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4000);
    expect(metadata.contentLost).toBe(true);
    const [record] = await store.index.list();
    expect(record).toMatchObject({
      sessionId: 'chat',
      toolCallId: 'call_1',
      toolName: 'bash',
      kind: 'terminal_log',
      createdAt: 7,
    });
    expect(
      text.startsWith(
        `Full output stored as artifact ${record!.id} (${record!.path}). Use artifact_read("${record!.id}"`,
      ),
    ).toBe(true);
    const marker = markerOf(text)!;
    expect(marker.file).toBe(record!.path);
    const library = createArtifactLibrary({ root });
    for (const ref of [record!.id, marker.file!, 'call_1']) {
      expect(sha256Hex(await rawBytes(library, ref, 'chat')), ref).toBe(marker.digest);
    }
    const tools = createArtifactToolHandler({ library, sessionId: 'chat' });
    expect(
      await tools.call('artifact_read', { id: marker.file, offset: 3999, limit: 5 }),
    ).toContain('sdk line 4000 ✓');
  });

  it('8b. a stored file without its index record (a crash between the two writes) is found by its file name', async () => {
    const store = createArtifactStore({ transcriptPath: join(root, 's.jsonl') });
    const output = bigLog('orphan');
    const stored = await store.store('call_9', output);
    const library = createArtifactLibrary({ root });
    expect(await library.list('s')).toEqual([]);
    const found = await library.resolve(stored.file);
    expect(found.record).toMatchObject({
      path: stored.file,
      bytes: stored.bytes,
      chars: stored.chars,
      digest: stored.digest,
      sessionId: 's',
    });
    expect(found.record.id).toMatch(/^art_[0-9a-f]{24}$/);
    expect(sha256Hex(await rawBytes(library, stored.file, 's'))).toBe(stored.digest);
    const page = await library.readPage(stored.file, { limit: 2 });
    expect(page.text).toBe(output.split('\n').slice(0, 2).join('\n') + '\n');
    // Only a real file of the store answers: not another name, not a link, not a path.
    await expect(library.resolve('call_9-0000000000000000.txt')).rejects.toMatchObject({
      code: 'artifact_not_found',
    });
    await symlink(
      join(artifactDirFor(join(root, 's.jsonl')), stored.file),
      join(root, 's.artifacts', 'link.txt'),
    );
    await expect(library.resolve('link.txt')).rejects.toMatchObject({ code: 'artifact_not_found' });
    await expect(library.resolve(`../s.artifacts/${stored.file}`)).rejects.toMatchObject({
      code: 'artifact_not_found',
    });
  });

  it('9. symbolic links are never followed, inside a store or as a store', async () => {
    const outside = join(root, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'secret.txt'), 'TOP SECRET\n');
    const session = await openSessionTranscript({ path: join(root, 'lib', 's.jsonl') });
    const { artifact } = await session.settleToolResult({
      toolName: 'terminal',
      toolCallId: 'c',
      output: bigLog('ok'),
    });
    const dir = artifactDirFor(join(root, 'lib', 's.jsonl'));
    // A forged record naming a link to a file outside.
    await symlink(join(outside, 'secret.txt'), join(dir, 'leak.txt'));
    await createArtifactIndex({ dir }).add({ ...artifact!, id: 'art_leak', path: 'leak.txt' });
    // A whole store that is a link to a folder outside.
    await mkdir(join(outside, 'x.artifacts'));
    await writeFile(join(outside, 'x.artifacts', 'secret.txt'), 'TOP SECRET\n');
    await createArtifactIndex({ dir: join(outside, 'x.artifacts') }).add({
      ...artifact!,
      id: 'art_other',
      path: 'secret.txt',
    });
    await symlink(join(outside, 'x.artifacts'), join(root, 'lib', 'linked.artifacts'));
    const library = createArtifactLibrary({ root: join(root, 'lib') });
    expect(await library.sessions()).toEqual(['s']);
    for (const ref of ['art_leak', 'leak.txt', 'art_other', 'secret.txt']) {
      await expect(library.readPage(ref), ref).rejects.toMatchObject({
        code: 'artifact_not_found',
      });
    }
    expect((await library.readPage(artifact!.id, { limit: 1 })).text).toBe('ok line 1 ✓\n');
    // The same over HTTP (and MCP, which reads through the same library).
    const server = await createArtifactServer({ dir: join(root, 'lib') }).listen();
    try {
      expect(await (await fetch(`${server.url}api/sessions`)).json()).toEqual({ sessions: ['s'] });
      for (const path of ['art_leak', 'leak.txt/raw', 'art_other/raw', 'secret.txt']) {
        const response = await fetch(`${server.url}api/artifacts/${path}`);
        expect(response.status, path).toBe(404);
        expect(await response.text()).not.toContain('TOP SECRET');
      }
      const linked = await fetch(`${server.url}api/sessions/linked/artifacts`);
      expect(linked.status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('10. two processes appending to one index lose and corrupt nothing', async () => {
    const dist = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
    if (!existsSync(dist)) {
      if (process.env.CI === 'true')
        throw new Error('run pnpm build first: the writers import dist/');
      console.warn('artifact-pointers.test: dist/ not built, skipping the two-process index test');
      return;
    }
    const dir = join(root, 'shared.artifacts');
    const script = `
      const { createArtifactStore, buildArtifactRecord } = await import(${JSON.stringify(dist)});
      const store = createArtifactStore({ dir: ${JSON.stringify(dir)} });
      const tag = process.argv[1];
      for (let i = 0; i < 150; i++) {
        const stored = await store.store('call_' + i, tag + ' ' + i + '\\n');
        await store.index.add(buildArtifactRecord({ sessionId: 'shared', stored, toolCallId: tag + '_' + i, preview: tag }));
      }`;
    const run = (tag: string) =>
      new Promise<number>((resolve) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script, tag], {
          stdio: 'inherit',
        });
        child.on('exit', (code) => resolve(code ?? -1));
      });
    expect(await Promise.all([run('alpha'), run('beta')])).toEqual([0, 0]);
    const records = await createArtifactIndex({ dir }).list();
    expect(records).toHaveLength(300);
    const lines = (await readFile(join(dir, 'index.jsonl'), 'utf8')).split('\n').filter(Boolean);
    // Every line is a record, or at most the torn-line mark (`#`) an append writes when it
    // sees the other process's line still landing for longer than it waits: readers skip it.
    for (const line of lines) if (line !== '#') expect(() => JSON.parse(line)).not.toThrow();
    expect(lines.filter((line) => line !== '#')).toHaveLength(300);
    const library = createArtifactLibrary({ root });
    for (const record of records.filter((_, i) => i % 37 === 0)) {
      expect(sha256Hex(await rawBytes(library, record.id))).toBe(record.digest);
    }
  });

  it('11. keepInline is honoured and tools route by exact names and patterns', async () => {
    const store = createArtifactStore({ dir: join(root, 'k.artifacts') });
    const output = bigLog('inline');
    const kept = await externalizeToolOutput(
      { toolName: 'todo', toolCallId: 't1', output },
      {
        sessionId: 'k',
        store,
        policies: [
          {
            name: 'todo',
            matches: (tool) => tool === 'todo',
            keepInline: () => true,
            project: () => {
              throw new Error('not called');
            },
          },
        ],
      },
    );
    expect(kept).toEqual({ content: output, contentLost: false });
    const kinds: Record<string, ArtifactRecord['kind']> = {};
    for (const tool of [
      'list_organizations',
      'merge_pr',
      'git_push',
      'mcp__fs__read_file',
      'functions.bash',
      'search_issues',
      'apply_patch',
    ]) {
      const settled = await externalizeToolOutput(
        { toolName: tool, toolCallId: tool, output },
        { sessionId: 'k', store },
      );
      kinds[tool] = settled.artifact!.kind;
      if (tool === 'list_organizations') expect(settled.content).toContain('items');
      if (tool === 'merge_pr' || tool === 'git_push')
        expect(settled.content).not.toMatch(/result lines for|\$ /);
    }
    expect(kinds).toEqual({
      list_organizations: 'tool_output',
      merge_pr: 'tool_output',
      git_push: 'tool_output',
      mcp__fs__read_file: 'file_read',
      'functions.bash': 'terminal_log',
      search_issues: 'tool_output',
      apply_patch: 'diff',
    });
  });
});

describe('property: every marker pointer resolves to bytes with the marker’s sha256', () => {
  const idArb = fc.oneof(
    fc.constantFrom('call_0', 'call_1', 'functions.bash:0', 'toolu_01A/B', '', '..', 'call|x'),
    fc.string({ maxLength: 200 }),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
  );
  const nameArb = fc.oneof(
    fc.constantFrom('run', 'my run', 'résumé', '2026-04-24T10:00:00', '日本'),
    fc
      .stringMatching(/^[A-Za-z0-9 _.,:é-]{1,20}$/)
      .filter((name) => !name.startsWith('.') && name.trim() === name && !name.endsWith('.')),
  );
  it('over random ids, transcript names, reused ids and moves', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            id: idArb,
            lines: fc.integer({ min: 1400, max: 2000 }),
            body: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
            moveTo: fc.option(nameArb, { freq: 4 }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        nameArb,
        async (steps, firstName) => {
          const dir = join(root, `p${run++}`);
          await mkdir(dir);
          let name = firstName;
          const settledAll: { content: string; id?: string }[] = [];
          for (const step of steps) {
            const session = await openSessionTranscript({ path: join(dir, `${name}.jsonl`) });
            const output = Array.from({ length: step.lines }, (_, i) => `${step.body} ${i}`).join(
              '\n',
            );
            const settled = await session.settleToolResult({
              toolName: 'terminal',
              toolCallId: step.id,
              output,
            });
            settledAll.push({
              content: settled.content,
              ...(settled.artifact ? { id: settled.artifact.id } : {}),
            });
            if (
              step.moveTo &&
              step.moveTo !== name &&
              !existsSync(join(dir, `${step.moveTo}.jsonl`))
            ) {
              await rename(join(dir, `${name}.jsonl`), join(dir, `${step.moveTo}.jsonl`));
              await rename(join(dir, `${name}.artifacts`), join(dir, `${step.moveTo}.artifacts`));
              name = step.moveTo;
            }
          }
          const library = createArtifactLibrary({ root: dir });
          for (const settled of settledAll) {
            const marker = markerOf(settled.content);
            expect(marker?.file).toBeDefined();
            expect(settled.id).toBeDefined();
            expect(sha256Hex(await rawBytes(library, marker!.file!, name))).toBe(marker!.digest);
            expect(sha256Hex(await rawBytes(library, settled.id!, name))).toBe(marker!.digest);
          }
        },
      ),
      { numRuns: 25 },
    );
  }, 60_000);
});
