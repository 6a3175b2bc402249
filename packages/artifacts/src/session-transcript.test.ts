import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { artifactDirFor } from './artifact-dir-for.js';
import { createArtifactIndex } from './artifact-index.js';
import { parseExcerptMarker } from './excerpt-marker.js';
import {
  loadTranscript,
  openSessionTranscript,
  type ToolResultEvent,
  toOpenAIChatMessages,
} from './session-transcript.js';
import { sha256Hex } from './sha256-hex.js';
import { referenceCount } from './test-support/grapheme-arbitraries.js';

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
      path: `call_list-${sha256Hex(output.output).slice(0, 16)}.txt`,
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
