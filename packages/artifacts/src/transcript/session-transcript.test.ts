import { constants } from 'node:buffer';
import { mkdtemp, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseExcerptMarker } from '../projection/excerpt-marker.js';
import { artifactDirFor } from '../storage/artifact-dir-for.js';
import { createArtifactIndex } from '../storage/artifact-index.js';
import { layOutJson } from '../storage/json-layout.js';
import { sha256Hex } from '../storage/sha256-hex.js';
import { createFaultyArtifactFileSystem } from '../test/index.js';
import { referenceCount } from '../test-support/grapheme-arbitraries.js';
import {
  loadTranscript,
  openSessionTranscript,
  readTranscriptRecords,
  type ToolResultEvent,
  type TranscriptRecord,
  toOpenAIChatMessages,
} from './session-transcript.js';

/** Bytes read from files, whole (`readFile`) or through a `FileHandle`, since the last reset. */
const reads = vi.hoisted(() => ({ bytes: 0 }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const readFile = (async (...args: Parameters<typeof actual.readFile>) => {
    const data = await actual.readFile(...args);
    reads.bytes += Buffer.byteLength(data);
    return data;
  }) as typeof actual.readFile;
  const open = async (...args: Parameters<typeof actual.open>) => {
    const handle = await actual.open(...args);
    const read = handle.read.bind(handle) as (...a: unknown[]) => Promise<{ bytesRead: number }>;
    handle.read = (async (...a: unknown[]) => {
      const result = await read(...a);
      reads.bytes += result.bytesRead;
      return result;
    }) as typeof handle.read;
    return handle;
  };
  return { ...actual, readFile, open };
});

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'transcript-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const bigFile = Array.from(
  { length: 9000 },
  (_, i) => `${i + 1}: const value${i} = compute(${i}); // ✓`,
).join('\n');

async function runTurn(path: string, events: ToolResultEvent[] = []) {
  const session = await openSessionTranscript({
    path,
    clock: () => 1_700_000_000_000,
    onEvent: (e) => events.push(e),
  });
  await session.append({ role: 'user', content: 'What does src/big.ts do?' });
  await session.append({
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'call_read_1', name: 'read_file', arguments: '{"path":"src/big.ts"}' }],
  });
  const settled = await session.settleToolResult({
    toolName: 'read_file',
    toolCallId: 'call_read_1',
    args: { path: 'src/big.ts' },
    output: bigFile,
  });
  return { session, settled };
}

describe('openSessionTranscript settle path', () => {
  it('uses one string for the conversation, the transcript, the event and the digest', async () => {
    const path = join(root, 'run-1.jsonl');
    const events: ToolResultEvent[] = [];
    const { session, settled } = await runTurn(path, events);
    const content = settled.content;
    expect(referenceCount(content)).toBeLessThanOrEqual(4000);
    expect(session.messages().at(-1)).toMatchObject({ role: 'tool', content });
    expect(events).toHaveLength(1);
    expect(events[0]!.content).toBe(content);
    const records = await loadTranscript(path);
    const settle = records.find((record) => record.type === 'tool_settled');
    expect(settle).toMatchObject({ content, digest: sha256Hex(content) });
    // The full bytes live in the artifact file, and the file is what the marker describes.
    const name = `call_read_1-${sha256Hex(bigFile).slice(0, 16)}.txt`;
    expect(settled.artifact?.path).toBe(name);
    const file = join(artifactDirFor(path), name);
    const full = await readFile(file, 'utf8');
    expect(full).toBe(bigFile);
    const markerLine = content.split('\n').find((line) => line.startsWith('[... elided'))!;
    expect(parseExcerptMarker(markerLine)).toMatchObject({
      file: name,
      digest: sha256Hex(full),
    });
    expect(content).toContain(`artifact_read("${settled.artifact!.id}"`);
    expect(content).not.toContain(root);
  });

  it('replays byte for byte on resume, with or without the .artifacts directory', async () => {
    const path = join(root, 'run-2.jsonl');
    const { session } = await runTurn(path);
    await session.persist();
    const before = toOpenAIChatMessages(session.messages());
    const resumed = await openSessionTranscript({ path });
    expect(JSON.stringify(toOpenAIChatMessages(resumed.messages()))).toBe(JSON.stringify(before));

    await rm(artifactDirFor(path), { recursive: true, force: true });
    const withoutArtifacts = await openSessionTranscript({ path });
    expect(JSON.stringify(toOpenAIChatMessages(withoutArtifacts.messages()))).toBe(
      JSON.stringify(before),
    );
    // The next turn goes on as before.
    await withoutArtifacts.append({ role: 'user', content: 'thanks' });
    expect(withoutArtifacts.messages()).toHaveLength(session.messages().length + 1);
  });

  it('refuses a transcript whose settled content no longer matches its digest', async () => {
    const path = join(root, 'run-3.jsonl');
    await runTurn(path);
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace('compute(0)', 'compute(9)'));
    await expect(openSessionTranscript({ path })).rejects.toMatchObject({
      code: 'artifact_transcript_invalid',
    });
  });

  it('appends exactly one closing assistant message however often it is persisted', async () => {
    const path = join(root, 'run-4.jsonl');
    const { session } = await runTurn(path);
    await session.persist();
    await session.persist();
    await Promise.all([session.persist(), session.persist()]);
    const resumed = await openSessionTranscript({ path });
    await resumed.persist();
    const records = await loadTranscript(path);
    const closing = records.filter(
      (record) =>
        record.type === 'message' && record.message.content.startsWith('Tool work completed'),
    );
    expect(closing).toHaveLength(1);
    expect(resumed.messages().at(-1)?.role).toBe('assistant');
  });

  it('keeps small outputs inline and stores nothing', async () => {
    const path = join(root, 'run-5.jsonl');
    const session = await openSessionTranscript({ path });
    const settled = await session.settleToolResult({
      toolName: 'terminal',
      toolCallId: 'c1',
      output: 'ok\n',
    });
    expect(settled.content).toBe('ok\n');
    expect(settled.artifact).toBeUndefined();
    await expect(readdir(artifactDirFor(path))).rejects.toThrow(/ENOENT/);
  });

  it('repeat settles of the same result keep one index record', async () => {
    const path = join(root, 'run-6.jsonl');
    const session = await openSessionTranscript({ path, clock: () => 5 });
    const output = {
      toolName: 'list_issues',
      toolCallId: 'call_list',
      output: JSON.stringify(
        Array.from({ length: 400 }, (_, i) => ({ number: i, title: `Issue ${i}` })),
      ),
    };
    const first = await session.settleToolResult(output);
    const again = await session.settleToolResult(output);
    expect(again.artifact?.id).toBe(first.artifact?.id);
    const records = await createArtifactIndex({ dir: artifactDirFor(path) }).list();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      kind: 'tool_output',
      sessionId: 'run-6',
      createdAt: 5,
      // Stored one value per line; the record keeps the result's own digest.
      path: `call_list-${sha256Hex(layOutJson(output.output)!).slice(0, 16)}.txt`,
      original: { layout: 'json-lines', digest: sha256Hex(output.output) },
    });
    expect(first.content).toContain('400 items');
  });

  it('fails open when the store cannot be written: the content says so, the turn goes on', async () => {
    const path = join(root, 'run-7.jsonl');
    await writeFile(artifactDirFor(path), 'a file where the directory should be');
    const session = await openSessionTranscript({ path });
    const settled = await session.settleToolResult({
      toolName: 'read_file',
      toolCallId: 'c9',
      output: bigFile,
    });
    expect(settled.artifact).toBeUndefined();
    expect(settled.content).toContain('Full output not stored (write failed)');
    expect(settled.content).toMatch(/full result not stored \(write failed\), sha256 [0-9a-f]{64}/);
    expect(referenceCount(settled.content)).toBeLessThanOrEqual(4000);
    const records = await loadTranscript(path);
    expect(records.at(-1)).toMatchObject({ type: 'tool_settled', artifact: null });
  });
});

describe('inline limit from config', () => {
  it('takes artifacts.inlineLimitChars from a loaded config (COMPACTION_ARTIFACT_INLINE_LIMIT)', async () => {
    const { loadConfig } = await import('@compaction/core');
    const { config } = loadConfig({ env: { COMPACTION_ARTIFACT_INLINE_LIMIT: '1500' } });
    const session = await openSessionTranscript({ path: join(root, 'cfg.jsonl'), config });
    const small = await session.settleToolResult({
      toolName: 'terminal',
      toolCallId: 'a',
      output: 'y'.repeat(1500),
    });
    expect(small.artifact).toBeUndefined();
    const big = await session.settleToolResult({
      toolName: 'terminal',
      toolCallId: 'b',
      output: 'y\n'.repeat(1000),
    });
    expect(big.artifact).toBeDefined();
    expect(referenceCount(big.content)).toBeLessThanOrEqual(1500);
  });
});

describe('a crash mid-append', () => {
  it('ignores the torn last line on load and appends cleanly after it', async () => {
    const path = join(root, 'torn.jsonl');
    const { session } = await runTurn(path);
    const before = session.messages();
    const { appendFile } = await import('node:fs/promises');
    await appendFile(path, '{"type":"message","message":{"role":"assis');
    const resumed = await openSessionTranscript({ path });
    expect(resumed.messages()).toEqual(before);
    await resumed.append({ role: 'user', content: 'again' });
    const reopened = await openSessionTranscript({ path });
    expect(reopened.messages().at(-1)).toEqual({ role: 'user', content: 'again' });
    expect(reopened.messages()).toHaveLength(before.length + 1);
  });
});

describe('issue 43 item 7: a torn line never swallows the next one', () => {
  const tornLine = '{"type":"message","message":{"role":"assis';

  it('a line torn after the session opened (a crashed writer) does not fuse with the next settle', async () => {
    const path = join(root, 'torn-later.jsonl');
    const { session } = await runTurn(path);
    const { appendFile } = await import('node:fs/promises');
    await appendFile(path, tornLine);
    await session.settleToolResult({ toolName: 'terminal', toolCallId: 'call_2', output: 'ok' });
    const warnings: string[] = [];
    const reopened = await openSessionTranscript({ path, onWarning: (m) => warnings.push(m) });
    expect(reopened.messages()).toEqual(session.messages());
    // The next append ended the torn line with `#`, so it can never parse.
    expect(warnings).toEqual([
      `${path}:4: skipped a torn line (${tornLine.length + 1} bytes that are not a transcript record)`,
    ]);
    expect(await readFile(path, 'utf8')).toContain(`${tornLine}#\n{"type":"tool_settled"`);
  });

  it('a short write of its own append is reported, and the next append starts on a line of its own', async () => {
    for (const fault of [{ shortWrite: 10 }, { shortWrite: 25, code: 'ENOSPC' }] as const) {
      const path = join(root, `short-${fault.shortWrite}.jsonl`);
      let full = false;
      const fileSystem = createFaultyArtifactFileSystem({
        fault: (operation, at) =>
          full && operation === 'append' && at === path ? fault : undefined,
      });
      const session = await openSessionTranscript({ path, fileSystem, onWarning: () => {} });
      await session.append({ role: 'user', content: 'one' });
      full = true;
      await expect(
        session.settleToolResult({ toolName: 'terminal', toolCallId: 'c', output: 'lost' }),
      ).rejects.toMatchObject({
        name: 'ArtifactError',
        code: 'artifact_transcript_write_failed',
        subject: path,
        message:
          'code' in fault
            ? expect.stringContaining('ENOSPC')
            : expect.stringMatching(/short write, 10 of \d+ bytes written/),
      });
      expect(session.messages()).toEqual([{ role: 'user', content: 'one' }]);
      full = false;
      await session.append({ role: 'user', content: 'two' });
      const warnings: string[] = [];
      const reopened = await openSessionTranscript({ path, onWarning: (m) => warnings.push(m) });
      expect(reopened.messages()).toEqual([
        { role: 'user', content: 'one' },
        { role: 'user', content: 'two' },
      ]);
      expect(warnings, JSON.stringify(fault)).toEqual([
        expect.stringContaining(`${path}:2: skipped a torn line`),
      ]);
    }
  });

  it('reading skips torn and foreign lines with a warning naming each, and keeps a record a torn line fused with', async () => {
    const path = join(root, 'fused.jsonl');
    const settled = settleLine('settled after a crash');
    await writeFile(
      path,
      `${messageLine('one')}{oops\n${tornLine}${settled}42\n \r\n${messageLine('three')}${tornLine}`,
    );
    const warnings: string[] = [];
    const records = await readTranscriptRecords(path, {
      chunkBytes: 5,
      onWarning: (m) => warnings.push(m),
    });
    expect(records).toEqual([
      JSON.parse(messageLine('one')),
      JSON.parse(settled),
      JSON.parse(messageLine('three')),
    ]);
    expect(warnings).toEqual([
      `${path}:2: skipped a torn line (5 bytes that are not a transcript record)`,
      `${path}:3: skipped ${tornLine.length} bytes of a torn line before a complete record`,
      `${path}:4: skipped a torn line (2 bytes that are not a transcript record)`,
      `${path}:7: skipped the last ${tornLine.length} bytes, a line without its newline (an append that crashed or is in progress)`,
    ]);
    // Opening reports the same through process warnings by default, and never refuses.
    const emitted = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    try {
      const session = await openSessionTranscript({ path });
      expect(session.messages()).toHaveLength(3);
      expect(emitted).toHaveBeenCalledTimes(4);
      expect(emitted).toHaveBeenCalledWith(warnings[0], 'CompactionWarning');
    } finally {
      emitted.mockRestore();
    }
  });
});

/** A line's record when it is one whole, else `undefined`. */
const wholeRecord = (text: string): TranscriptRecord | undefined => {
  try {
    const value = JSON.parse(text) as TranscriptRecord;
    return value?.type === 'message' || value?.type === 'tool_settled' ? value : undefined;
  } catch {
    return undefined;
  }
};

/**
 * What a transcript loads to, from the whole file as one string: the lines up to the last
 * newline; a line that holds no record is skipped, one with a record after torn bytes keeps it.
 */
function loadWhole(data: Buffer, path: string): TranscriptRecord[] {
  const lines = data.toString('utf8').split('\n');
  lines.pop();
  const records: TranscriptRecord[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let record = wholeRecord(line);
    for (let at = line.indexOf('{"type":"', 1); !record && at > 0; ) {
      record = wholeRecord(line.slice(at));
      at = line.indexOf('{"type":"', at + 1);
    }
    if (!record) return;
    if (record.type === 'tool_settled' && sha256Hex(record.content) !== record.digest) {
      throw new Error(
        `${path}:${i + 1} content does not match its digest (tool call ${record.toolCallId})`,
      );
    }
    records.push(record);
  });
  return records;
}

/** The complete lines of a file: up to its last newline. */
const completeLines = (data: Buffer) => data.subarray(0, data.lastIndexOf(0x0a) + 1);

const outcome = async (load: () => Promise<TranscriptRecord[]> | TranscriptRecord[]) => {
  try {
    return { records: await load() };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

const messageLine = (content: string, end = '\n') =>
  JSON.stringify({ type: 'message', message: { role: 'user', content } }) + end;
const settleLine = (content: string, digest = sha256Hex(content)) =>
  `${JSON.stringify({
    type: 'tool_settled',
    toolCallId: 'c1',
    toolName: 'terminal',
    content,
    digest,
    artifact: null,
  })}\n`;

describe('bounded reads of a transcript', () => {
  it('loads line by line exactly as the whole text did, whatever the chunk size', async () => {
    const path = join(root, 'chunks.jsonl');
    const lines = fc.constantFrom(
      messageLine('plain'),
      messageLine('crlf', '\r\n'),
      messageLine('é 😀 中文 👩‍👩‍👧'),
      messageLine('x'.repeat(70)),
      '\n',
      '\r\n',
      'not json\n',
      `\ufeff${messageLine('after a byte-order mark')}`,
      settleLine('settled ✓'),
      settleLine('tampered', sha256Hex('original')),
    );
    const tails = fc.constantFrom(
      '',
      '{"type":"message","message":{"role":"assis',
      messageLine('complete but unterminated', ''),
      '\r',
      'no newline 😀',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(lines, { maxLength: 12 }),
        tails,
        fc.nat({ max: 3 }),
        fc.integer({ min: 1, max: 80 }),
        async (body, tail, cut, chunkBytes) => {
          const whole = Buffer.from(body.join('') + tail, 'utf8');
          // Cut the tail inside a multi-byte character too (never into a newline).
          const data = tail ? whole.subarray(0, whole.length - cut) : whole;
          await writeFile(path, data);
          const expected = await outcome(() => loadWhole(data, path));
          expect(await outcome(() => readTranscriptRecords(path, { chunkBytes }))).toEqual(
            expected,
          );
          if (chunkBytes === 1) expect(await outcome(() => loadTranscript(path))).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('skips a bad line with a warning naming the file and the line', async () => {
    const path = join(root, 'bad.jsonl');
    await writeFile(path, `${messageLine('one')}\n${messageLine('three')}{oops\n`);
    const warnings: string[] = [];
    const records = await readTranscriptRecords(path, {
      chunkBytes: 3,
      onWarning: (m) => warnings.push(m),
    });
    expect(records).toEqual([JSON.parse(messageLine('one')), JSON.parse(messageLine('three'))]);
    expect(warnings).toEqual([
      `${path}:4: skipped a torn line (5 bytes that are not a transcript record)`,
    ]);
  });

  it('loads an absent file as an empty session and honours an aborted signal', async () => {
    expect(await loadTranscript(join(root, 'absent.jsonl'))).toEqual([]);
    const path = join(root, 'present.jsonl');
    await writeFile(path, messageLine('hi'));
    const controller = new AbortController();
    controller.abort();
    await expect(loadTranscript(path, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('loads a transcript larger than one string can hold', async () => {
    const path = join(root, 'large.jsonl');
    // Each line is a small record padded to 1 MiB with the spaces JSON allows after a value.
    const pad = Buffer.alloc(1 << 20, ' ');
    const count = Math.ceil(constants.MAX_STRING_LENGTH / pad.length) + 2;
    const handle = await open(path, 'w');
    try {
      for (let i = 0; i < count; i++) {
        const record = Buffer.from(messageLine(`message ${i}`, ''));
        await handle.write(Buffer.concat([record, pad, Buffer.from('\n')]));
      }
    } finally {
      await handle.close();
    }
    expect((await stat(path)).size).toBeGreaterThan(constants.MAX_STRING_LENGTH);
    const session = await openSessionTranscript({ path });
    const messages = session.messages();
    expect(messages).toHaveLength(count);
    expect(messages.at(-1)).toEqual({ role: 'user', content: `message ${count - 1}` });
  });

  it('skips a single line too long to be a string with a warning, not a crash', async () => {
    const path = join(root, 'long-line.jsonl');
    const first = messageLine('before');
    // A sparse file: the NUL bytes of line 2 take no disk space.
    const handle = await open(path, 'w');
    try {
      await handle.write(first);
      await handle.write('\n', first.length + constants.MAX_STRING_LENGTH + 1);
    } finally {
      await handle.close();
    }
    const warnings: string[] = [];
    expect(await loadTranscript(path, { onWarning: (m) => warnings.push(m) })).toEqual([
      JSON.parse(first),
    ]);
    expect(warnings).toEqual([
      `${path}:2: skipped a line of ${constants.MAX_STRING_LENGTH + 1} bytes, more than a string can hold`,
    ]);
  });

  it('skips a line as soon as it is too long to decode, without holding it whole', async () => {
    const path = join(root, 'longer.jsonl');
    const three = messageLine('three', '');
    await writeFile(
      path,
      `${messageLine('one')}${messageLine('two')}${three}${' '.repeat(100 - three.length)}\n`,
    );
    for (const chunkBytes of [1, 7, 64]) {
      const warnings: string[] = [];
      const records = await readTranscriptRecords(path, {
        chunkBytes,
        maxLineBytes: 80,
        onWarning: (m) => warnings.push(m),
      });
      expect(records).toHaveLength(2);
      expect(warnings).toEqual([
        `${path}:3: skipped a line longer than 80 bytes, more than a string can hold`,
      ]);
    }
    expect(await readTranscriptRecords(path, { chunkBytes: 7, maxLineBytes: 100 })).toHaveLength(3);
  });

  it('leaves a torn tail in place on open, reading the file once, and appends on a line of its own', async () => {
    const complete = messageLine('first') + messageLine('second ✓');
    const longLine = messageLine('y'.repeat(200_000), '');
    const cases: Record<string, Buffer> = {
      'a complete line': Buffer.from(complete),
      'a torn line': Buffer.from(`${complete}{"type":"message","mess`),
      'a torn multi-byte character': Buffer.from(
        `${complete}{"type":"message","content":"😀`,
      ).subarray(0, -2),
      'CRLF lines': Buffer.from(messageLine('a', '\r\n') + messageLine('b', '\r\n')),
      'a torn CRLF': Buffer.from(`${messageLine('a', '\r\n')}${messageLine('b', '')}\r`),
      'an empty file': Buffer.alloc(0),
      'only a torn line': Buffer.from('{"type":"mess'),
      'a torn line longer than a chunk': Buffer.from(complete + longLine),
      'a complete line longer than a chunk': Buffer.from(`${complete}${longLine}\n`),
      'a torn line after many lines': Buffer.from(messageLine('z'.repeat(1000)).repeat(3000) + '{'),
    };
    for (const [name, data] of Object.entries(cases)) {
      const path = join(root, `repair-${Object.keys(cases).indexOf(name)}.jsonl`);
      await writeFile(path, data);
      const complete = completeLines(data);
      reads.bytes = 0;
      const session = await openSessionTranscript({ path, onWarning: () => {} });
      const read = reads.bytes;
      // Opening writes nothing: another process may still be appending the last line.
      expect((await readFile(path)).equals(data), name).toBe(true);
      expect(session.messages(), name).toEqual(
        loadWhole(data, path).map((r) => r.type === 'message' && r.message),
      );
      // Once through the complete lines, plus the end once: back to the last newline, in
      // chunks of 64 KiB.
      expect(read, name).toBeLessThanOrEqual(
        complete.length + (data.length - complete.length + (64 << 10)),
      );
      await session.append({ role: 'user', content: 'next' });
      const torn = complete.length < data.length;
      expect(
        (await readFile(path)).equals(
          Buffer.concat([data, Buffer.from(`${torn ? '#\n' : ''}${messageLine('next')}`)]),
        ),
        name,
      ).toBe(true);
      const reopened = await openSessionTranscript({ path, onWarning: () => {} });
      expect(reopened.messages().at(-1), name).toEqual({ role: 'user', content: 'next' });
      // A torn line, even a record that lacked only its newline (a torn CRLF), never parses.
      expect(reopened.messages(), name).toHaveLength(session.messages().length);
      expect(reopened.messages(), name).toEqual(
        loadWhole(await readFile(path), path).map((r) => r.type === 'message' && r.message),
      );
    }
  });
});
