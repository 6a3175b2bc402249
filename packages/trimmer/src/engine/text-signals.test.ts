import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineStarts } from '../readers/line-starts.js';
import { lineTemplate } from '../readers/line-template.js';
import { DEFAULT_VOCABULARY } from '../vocabulary.js';
import { textSignals } from './text-signals.js';

describe('textSignals', () => {
  it('gives lines one shape id exactly when their templates agree, in order of first use', () => {
    // Words of many shapes, so the interning table grows several times.
    const word = fc.oneof(
      fc.stringMatching(/^[a-z]{1,6}$/),
      fc.constantFrom('ERROR', 'id=42', '\x1b[31m', '😀', '\ud800', '\t', '  '),
    );
    const line = fc.array(word, { maxLength: 8 }).map((words) => words.join(' '));
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 400 }), fc.boolean(), (lines, crlf) => {
        const text = lines.join(crlf ? '\r\n' : '\n');
        const units = Uint16Array.from({ length: text.length }, (_, i) => text.charCodeAt(i));
        const starts = lineStarts(text, () => {});
        const signals = textSignals({
          text,
          units,
          starts,
          unit: 'lines',
          check: () => {},
          vocabulary: DEFAULT_VOCABULARY,
          lineStarts: starts,
        });
        const idOf = new Map<number, number>();
        starts.forEach((from, r) => {
          let to = starts[r + 1] ?? text.length;
          while (to > from && (text[to - 1] === '\n' || text[to - 1] === '\r')) to--;
          let filled = from;
          while (filled < to && (text[filled] === ' ' || text[filled] === '\t')) filled++;
          const hash = lineTemplate(units, from, to, Math.min(filled, from + 1024));
          if (!idOf.has(hash)) idOf.set(hash, idOf.size);
          expect(signals.template![r]).toBe(idOf.get(hash));
        });
        expect(signals.templates).toBe(idOf.size);
      }),
      { numRuns: 200 },
    );
  });
});
