import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endOfLastLine } from './end-of-last-line.js';
import type { PositionalReader } from './positional-reader.js';

/** A reader over bytes in memory that hands back at most `most` bytes a read, as a file may. */
function memoryReader(
  data: Uint8Array,
  most = Number.POSITIVE_INFINITY,
): PositionalReader & { read: PositionalReader['read']; bytes: number; lowest: number } {
  const reader = {
    bytes: 0,
    lowest: data.length,
    async read(buffer: Uint8Array, offset: number, length: number, position: number) {
      const part = data.subarray(position, position + Math.min(length, most));
      buffer.set(part, offset);
      reader.bytes += part.byteLength;
      reader.lowest = Math.min(reader.lowest, position);
      return { bytesRead: part.byteLength };
    },
  };
  return reader;
}

describe('endOfLastLine', () => {
  it('is just past the last newline, whatever the chunk size, reading from it to the end only', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('a', 'bc', '\n', '\r\n', 'é', '\u{1f600}'), { maxLength: 40 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 4 }),
        async (parts, chunkBytes, most) => {
          const data = Buffer.from(parts.join(''), 'utf8');
          const reader = memoryReader(data, most);
          const end = await endOfLastLine(reader, data.length, { chunkBytes });
          expect(end).toBe(data.lastIndexOf(0x0a) + 1);
          // Back to the chunk holding that newline, not further.
          const tail = data.length - end;
          expect(reader.bytes).toBeLessThanOrEqual(tail + chunkBytes);
          if (end > 0) expect(reader.lowest).toBeGreaterThan(end - 1 - chunkBytes);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('reads one 64 KiB chunk of a large file that ends on a newline', async () => {
    const data = Buffer.from('x\n'.repeat(1 << 20));
    const reader = memoryReader(data);
    expect(await endOfLastLine(reader, data.length)).toBe(data.length);
    expect(reader.bytes).toBe(64 << 10);
    expect(await endOfLastLine(reader, 0)).toBe(0);
  });

  it('honours its signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(
      endOfLastLine(memoryReader(Buffer.from('a\nb')), 3, { signal: controller.signal }),
    ).rejects.toThrow('stop');
  });
});
