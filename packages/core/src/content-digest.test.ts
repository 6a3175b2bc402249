import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentDigest } from './content-digest.js';

describe('contentDigest', () => {
  it('is the SHA-256 of the UTF-8 bytes, for any string', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme' }), async (text) => {
        expect(await contentDigest(text)).toBe(createHash('sha256').update(text).digest('hex'));
      }),
    );
  });
});
