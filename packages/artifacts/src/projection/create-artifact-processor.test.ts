import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArtifactStore } from '../storage/artifact-store.js';
import { restoreJsonLayout } from '../storage/json-layout.js';
import { sha256Hex } from '../storage/sha256-hex.js';
import { trickyText } from '../test-support/grapheme-arbitraries.js';
import { createArtifactProcessor } from './create-artifact-processor.js';
import { parseExcerptMarker } from './excerpt-marker.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'processor-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('createArtifactProcessor', () => {
  it('keeps every result within maxBytes and says so exactly when content was lost', async () => {
    const processor = createArtifactProcessor();
    await fc.assert(
      fc.asyncProperty(
        trickyText(300),
        fc.integer({ min: 200, max: 900 }),
        async (text, maxBytes) => {
          const { text: out, metadata } = await processor.process(text, maxBytes);
          expect(Buffer.byteLength(out)).toBeLessThanOrEqual(maxBytes);
          expect(metadata.outputBytes).toBe(Buffer.byteLength(out));
          expect(metadata.contentLost).toBe(out !== text);
          if (metadata.contentLost) expect(out).toMatch(/full result not stored \(no session\)/);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('stores the full result under the step id and names it in the marker', async () => {
    const store = createArtifactStore({ dir: join(root, 'p.artifacts') });
    const processor = createArtifactProcessor({ store });
    const result = 'payload line ✓\n'.repeat(10_000);
    const { text, metadata } = await processor.process(result, 2000, { stepId: 'step-42' });
    expect(metadata).toMatchObject({
      contentLost: true,
      strategy: 'bytes',
      originalBytes: Buffer.byteLength(result),
    });
    const marker = parseExcerptMarker(
      text.split('\n').find((line) => line.startsWith('[... elided'))!,
    );
    const file = `step-42-${sha256Hex(result).slice(0, 16)}.txt`;
    expect(marker).toMatchObject({ file, digest: sha256Hex(result) });
    expect(await readFile(join(store.dir, file), 'utf8')).toBe(result);
  });

  it("uses the caller's digest of the result instead of hashing it again", async () => {
    const store = createArtifactStore({ dir: join(root, 'digest.artifacts') });
    const processor = createArtifactProcessor({ store });
    const result = 'payload line ✓\n'.repeat(1000);
    const digest = sha256Hex(result);
    const { text } = await processor.process(result, 2000, {
      stepId: 'step-d',
      contentDigest: digest,
    });
    const [record] = await store.index.list();
    expect(record).toMatchObject({ digest, path: `step-d-${digest.slice(0, 16)}.txt` });
    expect(text.split('\n').map(parseExcerptMarker).find(Boolean)).toMatchObject({ digest });
    // Trusted as given (the contract says it is the result's): not recomputed.
    const unstored = await createArtifactProcessor().process(result, 2000, {
      contentDigest: 'f'.repeat(64),
    });
    expect(unstored.text.split('\n').map(parseExcerptMarker).find(Boolean)).toMatchObject({
      digest: 'f'.repeat(64),
      notStoredReason: 'no session',
    });
  });

  it('returns a result that fits unchanged and rejects when aborted', async () => {
    const processor = createArtifactProcessor();
    await expect(processor.process('small', 100)).resolves.toMatchObject({
      text: 'small',
      metadata: { contentLost: false },
    });
    await expect(processor.process('y'.repeat(500), 60)).rejects.toMatchObject({
      code: 'budget_too_small',
    });
    await expect(
      processor.process('x', 100, { signal: AbortSignal.abort(new Error('stop')) }),
    ).rejects.toThrow('stop');
  });
});

describe('issue 43 item 19: a JSON result on the processor path', () => {
  it('is stored one value per line; marker and record name the file, the record the original', async () => {
    const store = createArtifactStore({ dir: join(root, 'json.artifacts') });
    const processor = createArtifactProcessor({ store });
    const result = JSON.stringify({
      rows: Array.from({ length: 500 }, (_, i) => ({ i, name: `row ${i}` })),
    });
    // The caller's digest is of the result, not of the file: it must not name the file.
    const { text } = await processor.process(result, 2000, {
      stepId: 'step_json',
      contentDigest: sha256Hex(result),
    });
    const marker = text.split('\n').map(parseExcerptMarker).find(Boolean)!;
    const [record] = await store.index.list();
    const file = await readFile(join(store.dir, record!.path), 'utf8');
    expect(file.split('\n').length).toBeGreaterThan(1500);
    expect(marker.file).toBe(record!.path);
    expect(marker.digest).toBe(sha256Hex(file));
    expect(record!.digest).toBe(sha256Hex(file));
    expect(record!.original).toEqual({
      layout: 'json-lines',
      digest: sha256Hex(result),
      bytes: Buffer.byteLength(result),
    });
    expect(restoreJsonLayout(file)).toBe(result);
  });
});
