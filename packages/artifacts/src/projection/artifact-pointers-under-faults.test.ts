import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { ArtifactError } from '../artifact-error.js';
import { createArtifactLibrary } from '../reading/artifact-library.js';
import { artifactDirFor } from '../storage/artifact-dir-for.js';
import { ARTIFACT_INDEX_FILE } from '../storage/artifact-index.js';
import { createArtifactStore } from '../storage/artifact-store.js';
import { layOutJson, restoreJsonLayout } from '../storage/json-layout.js';
import { recordStoredArtifact } from '../storage/record-stored-artifact.js';
import { sha256Hex } from '../storage/sha256-hex.js';
import {
  type ArtifactFault,
  type ArtifactFileOperation,
  createFaultyArtifactFileSystem,
} from '../test/index.js';
import { openSessionTranscript } from '../transcript/session-transcript.js';
import { parseArtifactPointerLine } from './artifact-pointer-line.js';
import { parseExcerptMarker } from './excerpt-marker.js';

// Issue 43, "done when": over random faults (torn lines, short writes, a full disk, files that
// cannot be read) every pointer printed resolves to bytes whose sha256 matches, or says the
// result was not stored; a settle that could not be recorded is reported, never lost.

/** Files `open` refuses with EACCES (reads only: CI runs as root, where chmod takes nothing). */
const unreadable = vi.hoisted(() => new Set<string>());
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const open = (async (path: Parameters<typeof actual.open>[0], ...rest: unknown[]) => {
    if (unreadable.has(String(path))) {
      throw Object.assign(new Error(`EACCES: permission denied, open '${String(path)}'`), {
        code: 'EACCES',
      });
    }
    return (actual.open as (...args: unknown[]) => ReturnType<typeof actual.open>)(path, ...rest);
  }) as typeof actual.open;
  return { ...actual, open };
});

/** Where a fault strikes: the artifact file, its index record, or the transcript line. */
interface StepFaults {
  file?: [ArtifactFileOperation, ArtifactFault];
  index?: [ArtifactFileOperation, ArtifactFault];
  transcript?: [ArtifactFileOperation, ArtifactFault];
}

const openFault = (op: 'openForWrite' | 'openForAppend') =>
  fc
    .constantFrom('ENOSPC', 'EACCES', 'EROFS', 'EIO')
    .map((code): [ArtifactFileOperation, ArtifactFault] => [op, { code }]);
const shortWrite = (op: 'write' | 'append') =>
  fc
    .tuple(fc.nat({ max: 3000 }), fc.constantFrom(undefined, 'ENOSPC'))
    .map(([bytes, code]): [ArtifactFileOperation, ArtifactFault] => [
      op,
      code ? { shortWrite: bytes, code } : { shortWrite: bytes },
    ]);
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 3 });

const step = fc.record({
  // A settle (the transcript path), `compaction excerpt --session`, `compaction store`.
  kind: fc.constantFrom('settle', 'excerpt', 'store'),
  lines: fc.integer({ min: 10, max: 400 }),
  seed: fc.nat(),
  faults: fc.record({
    file: maybe(fc.oneof(openFault('openForWrite'), shortWrite('write'))),
    index: maybe(fc.oneof(openFault('openForAppend'), shortWrite('append'))),
    transcript: maybe(fc.oneof(openFault('openForAppend'), shortWrite('append'))),
  }) as fc.Arbitrary<StepFaults>,
  tornTranscript: fc.boolean(),
  tornIndex: fc.boolean(),
  unreadable: fc.boolean(),
  // A one-line JSON result (a settle stores it one value per line, issue 43 item 19).
  json: fc.boolean(),
});

/** What was printed for one result (an excerpt, or the id `compaction store` prints). */
interface Printed {
  text?: string;
  id?: string;
  file?: string;
  output: string;
  /** The bytes stored for it, when they are not `output` (a JSON result laid out). */
  stored?: string;
  unreadable: boolean;
}

async function* chunks(text: string) {
  for (let at = 0; at < text.length; at += 1000) yield text.slice(at, at + 1000);
}

/** `ref` resolves to the bytes of `item.output`, or (only when made unreadable) says so. */
async function expectBytes(
  library: ReturnType<typeof createArtifactLibrary>,
  ref: string,
  item: Printed,
) {
  try {
    const raw = await library.openRaw(ref);
    try {
      const bytes = await raw.handle.readFile();
      expect(sha256Hex(bytes)).toBe(sha256Hex(item.stored ?? item.output));
      expect(raw.record.digest).toBe(sha256Hex(item.stored ?? item.output));
      if (item.stored !== undefined) {
        // Laid out: the record keeps the result's own digest, and restoring gives it back.
        expect(raw.record.original?.digest).toBe(sha256Hex(item.output));
        expect(sha256Hex(restoreJsonLayout(bytes.toString('utf8')))).toBe(sha256Hex(item.output));
      } else expect(raw.record.original).toBeUndefined();
    } finally {
      await raw.handle.close();
    }
    expect(item.unreadable, ref).toBe(false);
  } catch (error) {
    if (!ArtifactError.isInstance(error)) throw error;
    expect(error.code, String(error)).toBe('artifact_permission_denied');
    expect(item.unreadable).toBe(true);
  }
}

describe('every printed pointer resolves, under random write and read faults', () => {
  it('resolves to bytes whose sha256 matches, or says not stored; nothing settled is lost', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const root = await mkdtemp(join(tmpdir(), 'pointers-faults-'));
        unreadable.clear();
        try {
          const path = join(root, 'run.jsonl');
          const dir = artifactDirFor(path);
          let faults: StepFaults = {};
          const fileSystem = createFaultyArtifactFileSystem({
            fault(operation, at) {
              const target =
                at === path ? 'transcript' : at.endsWith(ARTIFACT_INDEX_FILE) ? 'index' : 'file';
              const fault = faults[target];
              return fault && fault[0] === operation ? fault[1] : undefined;
            },
          });
          const warnings: string[] = [];
          const session = await openSessionTranscript({
            path,
            fileSystem,
            inlineLimitChars: 1000,
            onWarning: (message) => warnings.push(message),
          });
          const store = createArtifactStore({ transcriptPath: path, fileSystem });
          const printed: Printed[] = [];
          const settled: string[] = [];

          for (const [i, s] of steps.entries()) {
            const json = s.json && s.kind === 'settle';
            const output = json
              ? JSON.stringify({
                  step: i,
                  rows: Array.from({ length: s.lines }, (_, line) => ({
                    line,
                    value: (s.seed * (line + 1)) % 9973,
                    id: 0,
                    mark: '✓ "q"',
                  })),
                }).replace(/"id":0/g, `"id":9007199254740993${s.seed % 10}`)
              : Array.from(
                  { length: s.lines },
                  (_, line) => `step ${i} line ${line} value ${(s.seed * (line + 1)) % 9973} ✓`,
                ).join('\n');
            const laidOut = json ? layOutJson(output) : undefined;
            // A writer in another process crashed mid-line.
            if (s.tornTranscript) await appendFile(path, '{"type":"tool_settled","toolCa');
            if (s.tornIndex) {
              await appendFile(join(dir, ARTIFACT_INDEX_FILE), '{"id":"art_0123', {
                flag: 'a',
              }).catch(() => {});
            }
            faults = s.faults;
            if (s.kind === 'settle') {
              try {
                const result = await session.settleToolResult({
                  toolName: 'terminal',
                  toolCallId: `call_${i}`,
                  output,
                });
                settled.push(result.content);
                printed.push({
                  text: result.content,
                  output,
                  ...(laidOut !== undefined && result.artifact ? { stored: laidOut } : {}),
                  unreadable: s.unreadable,
                });
              } catch (error) {
                // Reported, not lost: only the transcript line can fail a settle.
                expect(ArtifactError.isInstance(error) && error.code).toBe(
                  'artifact_transcript_write_failed',
                );
                expect(s.faults.transcript).toBeDefined();
              }
            } else if (s.kind === 'store') {
              // As `compaction store`: an id is printed only once its index record is written.
              const result = await store.storeStream(`st_${i}`, chunks(output), {
                budgetChars: 400,
              });
              if (!result.stored) continue;
              try {
                const record = await recordStoredArtifact({
                  index: store.index,
                  sessionId: store.sessionId,
                  stored: result.stored,
                  toolCallId: `st_${i}`,
                  preview: result.excerpt.head,
                });
                printed.push({
                  id: record.id,
                  file: record.path,
                  output,
                  unreadable: s.unreadable,
                });
              } catch (error) {
                expect(ArtifactError.isInstance(error)).toBe(true);
              }
            } else {
              const result = await store.storeStream(`op_${i}`, chunks(output), {
                budgetChars: 600,
                record: (stored, preview) =>
                  recordStoredArtifact({
                    index: store.index,
                    sessionId: store.sessionId,
                    stored,
                    toolCallId: `op_${i}`,
                    preview,
                  }),
              });
              printed.push({ text: result.excerpt.text, output, unreadable: s.unreadable });
            }
          }
          faults = {};

          // Some stored files cannot be read back.
          const library = createArtifactLibrary({ root });
          for (const item of printed) {
            if (item.text === undefined) {
              if (item.unreadable) unreadable.add(join(dir, item.file!));
              await expectBytes(library, item.id!, item);
              continue;
            }
            // Whole: nothing was cut, so nothing needs to be found again.
            if (item.text === item.output) continue;
            const marker = item.text
              .split('\n')
              .map(parseExcerptMarker)
              .find((found) => found !== undefined);
            const pointer = item.text
              .split('\n')
              .map(parseArtifactPointerLine)
              .find((found) => found !== undefined);
            // A marker naming a file describes its bytes; one saying not stored, the result.
            if (marker)
              expect(marker.digest).toBe(
                sha256Hex(marker.file ? (item.stored ?? item.output) : item.output),
              );
            if (item.unreadable && marker?.file) unreadable.add(join(dir, marker.file));
            const ref = pointer?.id ?? marker?.file;
            if (ref === undefined) {
              // Not stored, and it says so.
              expect(marker?.notStoredReason ?? '').not.toBe('');
              if (item.text.startsWith('Tool '))
                expect(item.text).toContain('Full output not stored');
              continue;
            }
            if (pointer && marker) expect(marker.file).toBe(pointer.file);
            await expectBytes(library, ref, item);
          }

          // Reopened, the session holds every settle that succeeded, in order, and only those.
          unreadable.clear();
          const reopened = await openSessionTranscript({ path, onWarning: () => {} });
          expect(
            reopened
              .messages()
              .filter((message) => message.role === 'tool')
              .map((message) => message.content),
          ).toEqual(settled);
        } finally {
          unreadable.clear();
          await rm(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 100 },
    );
  });
});
