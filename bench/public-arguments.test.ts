// Every public entry point that takes a size refuses a bad one at once with core's
// InvalidArgumentError: NaN, negative and fractional numbers, numbers passed as strings, and
// (where no limit means nothing) Infinity. None loops, cuts garbage or returns over budget.
import {
  countGraphemes,
  createArtifactProcessor,
  describeText,
  excerpt,
  excerptStream,
  headGraphemes,
  minimumExcerptBudget,
  tailGraphemes,
} from '@compaction/artifacts';
import { formatCount } from '@compaction/artifacts/internal';
import {
  assertSize,
  cutWithNote,
  estimateTokens,
  formatDuration,
  InvalidArgumentError,
  truncateUtf8,
  truncateUtf8Start,
} from '@compaction/core';
import { createDigester, createHeadPreviewProcessor, jsonStringWithin } from '@compaction/digest';
import {
  chunkResult,
  createContinuationDistiller,
  createDistiller,
  createLruDistillCache,
} from '@compaction/distiller';
import {
  allocateSynthesisBudgets,
  byteCutFloor,
  createAgentInputProcessor,
  createCompaction,
  guardResultProcessor,
} from '@compaction/orchestration';
import { createStructuralTrimmer } from '@compaction/trimmer';
import { describe, expect, it } from 'vitest';

const BAD_SIZES: readonly unknown[] = [Number.NaN, -1, 2.5, '4096'];
const NOT_TEXT: readonly unknown[] = [42, undefined, null, { text: 'x' }];
const text = JSON.stringify({ items: Array.from({ length: 300 }, (_, i) => ({ id: i })) });
const described = describeText(text);
const source = {
  totalChars: described.chars,
  totalBytes: described.bytes,
  digest: described.digest,
};
const trimmer = createStructuralTrimmer();
const model = { complete: async () => ({ text: 'summary' }) };

/** One entry point per row: how to call it with a bad size (or a bad text). */
const SIZE_ROWS: Record<string, (size: never) => unknown> = {
  'core truncateUtf8 maxBytes': (size) => truncateUtf8(text, size),
  'core truncateUtf8Start maxBytes': (size) => truncateUtf8Start(text, size),
  'core cutWithNote maxBytes': (size) => cutWithNote(text, size, () => '[note]'),
  'core estimateTokens bytes': (size) => estimateTokens(size),
  'core assertSize value': (size) => assertSize(size, 'value'),
  'trimmer trim maxBytes': (size) => trimmer.trim(text, size),
  'trimmer process maxBytes': (size) => trimmer.process(text, size),
  'digest jsonStringWithin maxBytes': (size) => jsonStringWithin('hello', size),
  'digest head preview maxBytes': (size) => createHeadPreviewProcessor().process(text, size),
  'distiller process maxBytes': (size) => createDistiller().process(text, size),
  'distiller chunkResult maxChunkBytes': (size) => chunkResult(text, { maxChunkBytes: size }),
  'distiller LRU cache maxBytes': (size) => createLruDistillCache({ maxBytes: size }),
  'distiller LRU cache defaultTtlMs': (size) => createLruDistillCache({ defaultTtlMs: size }),
  'distiller continuation prefilterBytes': (size) =>
    createContinuationDistiller({ client: model, prefilterBytes: size }),
  'distiller continuation deadlineMs': (size) =>
    createContinuationDistiller({ client: model, deadlineMs: size }),
  'orchestration byteCutFloor maxBytes': (size) => byteCutFloor(text, size),
  'orchestration guarded processor maxBytes': (size) =>
    guardResultProcessor(trimmer).process(text, size),
  'orchestration synthesis processor maxBytes': (size) =>
    createCompaction({ env: {} }).synthesisProcessor.process(text, size),
  'orchestration agent input maxParamBytes': (size) =>
    createAgentInputProcessor({ maxParamBytes: size }),
  'orchestration allocateSynthesisBudgets totalBytes': (size) =>
    allocateSynthesisBudgets([], { perResultBytes: 100, totalBytes: size, distilledBytes: 10 }),
  'artifacts excerpt budgetChars': (size) => excerpt(text, size, source),
  'artifacts excerpt maxBytes': (size) => excerpt(text, 400, source, { maxBytes: size }),
  'artifacts excerpt source.totalChars': (size) =>
    excerpt(text, 400, { ...source, totalChars: size }),
  'artifacts excerpt source.totalBytes': (size) =>
    excerpt(text, 400, { ...source, totalBytes: size }),
  'artifacts minimumExcerptBudget source.totalChars': (size) =>
    minimumExcerptBudget({ ...source, totalChars: size }),
  'artifacts excerptStream budgetChars': (size) =>
    excerptStream([text], { budgetChars: size } as never),
  'artifacts headGraphemes n': (size) => headGraphemes(text, size),
  'artifacts tailGraphemes n': (size) => tailGraphemes(text, size),
  'artifacts processor maxBytes': (size) => createArtifactProcessor().process(text, size),
  'artifacts formatCount value': (size) => formatCount(size),
};

const TEXT_ROWS: Record<string, (value: never) => unknown> = {
  'digest digester text': (value) => createDigester().digest(value),
  'distiller process result': (value) => createDistiller().process(value, 4096),
  'distiller chunkResult text': (value) => chunkResult(value),
  'digest jsonStringWithin text': (value) => jsonStringWithin(value, 100),
  'artifacts excerpt text': (value) => excerpt(value, 400, source),
  'artifacts countGraphemes text': (value) => countGraphemes(value),
  'artifacts describeText text': (value) => describeText(value),
  'artifacts processor result': (value) => createArtifactProcessor().process(value, 4096),
};

async function failure(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('public entry points refuse bad sizes with InvalidArgumentError', () => {
  for (const [name, call] of Object.entries(SIZE_ROWS)) {
    it(name, async () => {
      for (const size of BAD_SIZES) {
        const error = await failure(() => call(size as never));
        expect(InvalidArgumentError.isInstance(error), `${name} with ${String(size)}`).toBe(true);
      }
    });
  }
});

describe('public entry points refuse a text that is not a string', () => {
  for (const [name, call] of Object.entries(TEXT_ROWS)) {
    it(name, async () => {
      for (const value of NOT_TEXT) {
        const error = await failure(() => call(value as never));
        expect(InvalidArgumentError.isInstance(error), `${name} with ${String(value)}`).toBe(true);
      }
    });
  }
});

describe('public entry points that take other numbers', () => {
  it('refuse NaN, negative and non-numbers', async () => {
    const rows: [string, (value: never) => unknown][] = [
      ['core formatDuration ms', (value) => formatDuration(value)],
      [
        'orchestration contextWindowTokens',
        (value) => createCompaction({ env: {}, contextWindowTokens: value }),
      ],
    ];
    for (const [name, call] of rows) {
      for (const value of [Number.NaN, -1, '4096']) {
        const error = await failure(() => call(value as never));
        expect(InvalidArgumentError.isInstance(error), `${name} with ${String(value)}`).toBe(true);
      }
    }
  });
});

describe('an excerpt source of the wrong shape', () => {
  it('is refused at once, with the fields to pass for a describeText() result', async () => {
    for (const shape of [described, {}, null, 'abc', { ...source, digest: 7 }]) {
      const error = await failure(() => excerpt(text, 400, shape as never));
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
    }
    expect(() => excerpt(text, 400, described as never)).toThrow(/totalChars: d\.chars/);
  });
});
