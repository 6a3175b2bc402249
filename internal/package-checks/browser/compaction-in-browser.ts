// Bundled by esbuild for the browser (browser.test.ts): the portable layers as a page uses them.
import {
  buildJsonTape,
  numberScanBackend,
  parseJsonLossless,
  utf8ByteLength,
} from '@compaction/core';
import { createDigester } from '@compaction/digest';
import { createStructuralTrimmer } from '@compaction/trimmer';

/** What the test reads back from the page. */
export function run(text: string, budget: number, userQuery: string) {
  const view = createStructuralTrimmer().trim(text, budget, { userQuery });
  const digest = createDigester().digest(text);
  const lossless = parseJsonLossless(text);
  return {
    hasBuffer: typeof (globalThis as { Buffer?: unknown }).Buffer !== 'undefined',
    hasProcess: typeof (globalThis as { process?: unknown }).process !== 'undefined',
    numberScanBackend: numberScanBackend(),
    tapeOk: buildJsonTape(text).ok,
    losslessOk: lossless.ok,
    trimmed: view.text,
    trimmedBytes: utf8ByteLength(view.text),
    contentLost: view.metadata.contentLost,
    digest: digest.ok ? digest.digest : null,
  };
}
