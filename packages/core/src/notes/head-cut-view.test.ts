import { describe, expect, it } from 'vitest';
import { utf8ByteLength } from '../utf8.js';
import { disclosureNotes, trailingDisclosureNotes } from './disclosure-notes.js';
import { headCutView } from './head-cut-view.js';

const note = (sizes: { originalBytes: number; keptBytes: number }) =>
  disclosureNotes.trimmedBytes({ ...sizes, where: 'head' });

describe('headCutView', () => {
  it('keeps a result that fits whole, with lossless metadata', () => {
    expect(headCutView('héllo', 6, note, 'bytes')).toEqual({
      text: 'héllo',
      metadata: { contentLost: false, originalBytes: 6, outputBytes: 6, strategy: 'unchanged' },
    });
  });

  it('cuts the head within the budget, with its note and kept ratio', () => {
    const text = 'é'.repeat(500);
    const view = headCutView(text, 300, note, 'floor')!;
    expect(utf8ByteLength(view.text)).toBeLessThanOrEqual(300);
    expect(trailingDisclosureNotes(view.text).map((found) => found.kind)).toEqual(['trimmed']);
    expect(view.metadata).toMatchObject({
      contentLost: true,
      originalBytes: 1000,
      strategy: 'floor',
    });
    expect(view.metadata.keptRatio).toBeGreaterThan(0);
    expect(text.startsWith(view.text.split('\n')[0]!)).toBe(true);
  });

  it('says so when the budget cannot hold the note', () => {
    expect(headCutView('x'.repeat(1000), 10, note, 'bytes')).toBeUndefined();
  });
});
