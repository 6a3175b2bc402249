import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PositionalReader } from '../storage/positional-reader.js';
import { sha256Hex } from '../storage/sha256-hex.js';
import { edgeText, trickyText } from '../test-support/grapheme-arbitraries.js';
import { countGraphemes } from '../text/count-graphemes.js';
import { describeFile } from './describe-file.js';

/** A reader over bytes in memory that counts its reads. */
function memoryReader(data: Uint8Array): PositionalReader & { reads: number } {
  return {
    reads: 0,
    async read(buffer, offset, length, position) {
      this.reads++;
      const part = data.subarray(position, position + length);
      buffer.set(part, offset);
      return { bytesRead: part.byteLength };
    },
  };
}

/** What `describeFile` must answer: the whole file decoded at once and counted. */
function wholeDescription(data: Uint8Array, previewUnits = 2000) {
  const text = Buffer.from(data).toString('utf8');
  return {
    bytes: data.byteLength,
    chars: countGraphemes(text),
    digest: sha256Hex(data),
    preview: text.slice(0, previewUnits),
  };
}

/** Tricky text (marks, ZWJ emoji, CR LF, surrogates, flags) as UTF-8, with invalid bytes between. */
const trickyBytes = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: trickyText(20).map((text) => Buffer.from(text, 'utf8')) },
      { weight: 2, arbitrary: edgeText(20).map((text) => Buffer.from(text, 'utf8')) },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 4 }) },
    ),
    { maxLength: 8 },
  )
  .map((parts) => Buffer.concat(parts));

describe('describeFile', () => {
  it('counts, hashes and previews exactly as the whole text, whatever the chunk size', async () => {
    await fc.assert(
      fc.asyncProperty(
        trickyBytes,
        fc.integer({ min: 1, max: 48 }),
        fc.integer({ min: 0, max: 60 }),
        async (data, chunkBytes, previewUnits) => {
          const described = await describeFile(memoryReader(data), data.byteLength, {
            chunkBytes,
            previewUnits,
          });
          expect(described).toEqual(wholeDescription(data, previewUnits));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('splits every cluster, code point and CR LF of a mixed text at every byte', async () => {
    const data = Buffer.from(
      'ab🇫🇷🇩🇪e\u0301\u0308\r\n👨\u200d👩\u200d👧\u200d👦 क्षि 한\u11a8 🏴󠁧󠁢󠁳󠁣󠁴󠁿\r\r\n\ud800x',
      'utf8',
    );
    for (let chunkBytes = 1; chunkBytes <= data.byteLength; chunkBytes++) {
      const described = await describeFile(memoryReader(data), data.byteLength, {
        chunkBytes,
        previewUnits: 7,
      });
      expect(described, `chunks of ${chunkBytes}`).toEqual(wholeDescription(data, 7));
    }
  });

  it('counts a cluster longer than many chunks once, and an ASCII run after it', async () => {
    const text = `x${'\u0301'.repeat(200_000)}${'plain ascii line\n'.repeat(50_000)}\u{1f1eb}`;
    const data = Buffer.from(text, 'utf8');
    const described = await describeFile(memoryReader(data), data.byteLength, {
      chunkBytes: 4096,
    });
    expect(described).toEqual(wholeDescription(data));
    expect(described.chars).toBe(1 + 17 * 50_000 + 1);
  });

  it('reads in 1 MiB chunks by default, and keeps a byte-order mark as the whole decode does', async () => {
    const data = Buffer.from(`\ufeff${'line ✓ e\u0301\n'.repeat(300_000)}`, 'utf8');
    const reader = memoryReader(data);
    const described = await describeFile(reader, data.byteLength);
    expect(described).toEqual(wholeDescription(data));
    expect(described.preview.startsWith('\ufeffline ✓')).toBe(true);
    expect(reader.reads).toBe(Math.ceil(data.byteLength / (1 << 20)));
  });

  it('describes an empty file, and stops at the end of a file shorter than its size', async () => {
    expect(await describeFile(memoryReader(Buffer.alloc(0)), 0)).toEqual(
      wholeDescription(Buffer.alloc(0)),
    );
    const data = Buffer.from('short', 'utf8');
    expect(await describeFile(memoryReader(data), 100)).toEqual(wholeDescription(data));
  });

  it('stops reading once its signal is aborted', async () => {
    const controller = new AbortController();
    const data = Buffer.alloc(8 << 20, 'abc\n');
    const reader = memoryReader(data);
    const read = reader.read.bind(reader);
    reader.read = (...args) => {
      controller.abort(new Error('stop'));
      return read(...args);
    };
    await expect(
      describeFile(reader, data.byteLength, { signal: controller.signal }),
    ).rejects.toThrow('stop');
    expect(reader.reads).toBe(1);
  });
});
