import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linesFromEnd } from './lines-from-end.js';
import type { PositionalReader } from './positional-reader.js';

/** A reader over bytes in memory that hands back at most `most` bytes a read, as a file may. */
function memoryReader(data: Uint8Array, most = Number.POSITIVE_INFINITY): PositionalReader {
  return {
    async read(buffer, offset, length, position) {
      const part = data.subarray(position, position + Math.min(length, most));
      buffer.set(part, offset);
      return { bytesRead: part.byteLength };
    },
  };
}

async function collect(lines: AsyncIterable<Buffer>): Promise<string[]> {
  const all: string[] = [];
  for await (const line of lines) all.push(line.toString('latin1'));
  return all;
}

describe('linesFromEnd', () => {
  it('gives the lines of a split on newlines, last first, whatever the chunk size', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('a', 'bc', '\n', '\n\n', '\r\n', 'é', '\u{1f600}'), {
          maxLength: 40,
        }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 4 }),
        async (parts, chunkBytes, most) => {
          const data = Buffer.from(parts.join(''), 'utf8');
          const lines = await collect(
            linesFromEnd(memoryReader(data, most), data.byteLength, { chunkBytes }),
          );
          expect(lines).toEqual(data.toString('latin1').split('\n').reverse());
        },
      ),
      { numRuns: 500 },
    );
  });

  it('stops reading when the caller stops, and honours its signal', async () => {
    const data = Buffer.from('x\n'.repeat(1 << 20));
    let read = 0;
    const reader = memoryReader(data);
    const counting: PositionalReader = {
      read(buffer, offset, length, position) {
        read += length;
        return reader.read(buffer, offset, length, position);
      },
    };
    let taken = 0;
    for await (const _ of linesFromEnd(counting, data.byteLength, { chunkBytes: 4096 })) {
      if (++taken === 3) break;
    }
    expect(read).toBe(4096);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(
      collect(linesFromEnd(reader, data.byteLength, { signal: controller.signal })),
    ).rejects.toThrow('stop');
  });
});
