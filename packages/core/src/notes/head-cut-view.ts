import { assertSize } from '../assert-size.js';
import type { ProcessedResult } from '../result-processor.js';
import { losslessMetadata, type TrimStrategy } from '../trim-metadata.js';
import { utf8ByteLength } from '../utf8.js';
import { cutWithNote } from './cut-with-note.js';

/**
 * The head cut as a view: `result` whole when it fits `maxBytes` UTF-8 bytes, else its longest
 * head (on a code-point boundary) with the note `makeNote` writes for it, flagged `contentLost`
 * with its `keptRatio`. Undefined when `maxBytes` cannot hold the note itself; the caller
 * decides (a bare head, or a `BudgetTooSmallError`). `maxBytes` is an integer ≥ 0 or Infinity.
 */
export function headCutView(
  result: string,
  maxBytes: number,
  makeNote: (sizes: { originalBytes: number; keptBytes: number }) => string,
  strategy: TrimStrategy,
): ProcessedResult | undefined {
  assertSize(maxBytes, 'maxBytes', { allowInfinity: true });
  const originalBytes = utf8ByteLength(result);
  if (originalBytes <= maxBytes)
    return { text: result, metadata: losslessMetadata(result, result) };
  const cut = cutWithNote(result, maxBytes, (keptBytes) => makeNote({ originalBytes, keptBytes }));
  if (!cut) return undefined;
  return {
    text: cut.text,
    metadata: {
      contentLost: true,
      originalBytes,
      outputBytes: utf8ByteLength(cut.text),
      strategy,
      keptRatio: originalBytes > 0 ? cut.keptBytes / originalBytes : 0,
    },
  };
}
