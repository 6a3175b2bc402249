import { constants } from 'node:buffer';
import { type FileHandle, open } from 'node:fs/promises';
import type { CompactionConfig } from '@compaction/core';
import { ArtifactError } from '../artifact-error.js';
import { externalizeToolOutput } from '../projection/externalize-tool-output.js';
import type { ProjectionPolicy, ToolOutput } from '../projection/projection-policy.js';
import { appendLine } from '../storage/append-line.js';
import { artifactDirFor, transcriptStem } from '../storage/artifact-dir-for.js';
import type { ArtifactFileSystem } from '../storage/artifact-file-system.js';
import type { ArtifactRecord } from '../storage/artifact-record.js';
import { type ArtifactStore, createArtifactStore } from '../storage/artifact-store.js';
import { endOfLastLine } from '../storage/end-of-last-line.js';
import { createLineSplitter } from '../storage/line-splitter.js';
import { readChunks } from '../storage/read-chunks.js';
import { sha256Hex } from '../storage/sha256-hex.js';
import type { StoredArtifact } from '../storage/stored-artifact.js';

/** A tool call an assistant message asks for. */
export interface TranscriptToolCall {
  /** The call (operation) id. */
  id: string;
  /** The tool's name. */
  name: string;
  /** The arguments as JSON text, as the provider sent them. */
  arguments: string;
}

/** One conversation message, in the shape every provider adapter maps from. */
export interface TranscriptMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  /** The text; for a tool message, the settled content (inline output or excerpt). */
  content: string;
  /** Tool calls of an assistant message. */
  toolCalls?: TranscriptToolCall[];
  /** For a tool message: the call it answers. */
  toolCallId?: string;
  /** For a tool message: the tool's name. */
  toolName?: string;
}

/** A line of the JSONL transcript. */
export type TranscriptRecord =
  | { type: 'message'; message: TranscriptMessage }
  | {
      type: 'tool_settled';
      toolCallId: string;
      toolName: string;
      /** The content the conversation holds, byte for byte. */
      content: string;
      /** SHA-256 of `content`: the seed check a resumed run repeats. */
      digest: string;
      /** The artifact the full output went to, when it was stored. */
      artifact: (StoredArtifact & { id: string }) | null;
    };

/** The event a settled tool result emits, carrying the same string as the transcript. */
export interface ToolResultEvent {
  type: 'tool_result';
  toolCallId: string;
  toolName: string;
  content: string;
  artifact?: ArtifactRecord;
}

/** Settings of `openSessionTranscript`. */
export interface SessionTranscriptSettings {
  /** Path of the JSONL transcript; created on first append. */
  path: string;
  /** Tool outputs up to this many chars stay inline. Default: `config.artifacts.inlineLimitChars`, else 4000 (`COMPACTION_ARTIFACT_INLINE_LIMIT` through `loadConfig`). */
  inlineLimitChars?: number;
  /** Resolved config (`loadConfig`); supplies the inline limit when `inlineLimitChars` is absent. */
  config?: Pick<CompactionConfig, 'artifacts'>;
  /** Projection policies, first match wins. Default `DEFAULT_PROJECTION_POLICIES`. */
  policies?: readonly ProjectionPolicy[];
  /** The store for full outputs. Default: `<transcript-stem>.artifacts/` beside the transcript. */
  store?: ArtifactStore;
  /** Milliseconds since the epoch. Default `Date.now`. */
  clock?: () => number;
  /** Receives each settled tool result. */
  onEvent?: (event: ToolResultEvent) => void;
  /**
   * Receives a message for each line loading skips (torn by a crash or a full disk, or not a
   * transcript record). Default `process.emitWarning(message, 'CompactionWarning')`.
   */
  onWarning?: (message: string) => void;
  /**
   * File operations the transcript is appended with, and the default store writes with.
   * Default: the real filesystem.
   */
  fileSystem?: ArtifactFileSystem;
  /** Cancels loading. */
  signal?: AbortSignal;
}

/** An append-only session transcript with the settle path of seeds 000 and 001. */
export interface SessionTranscript {
  /** The session id (transcript stem). */
  readonly sessionId: string;
  /** The transcript path. */
  readonly path: string;
  /** The conversation so far (a copy). */
  messages(): TranscriptMessage[];
  /**
   * Appends a system, user or assistant message. A failed or short append rejects with
   * `artifact_transcript_write_failed` and the message is not added.
   */
  append(message: TranscriptMessage, options?: { signal?: AbortSignal }): Promise<void>;
  /**
   * Settles one tool result: the content is computed once (inline, or pointer and excerpt with
   * the full bytes written first), then the same string becomes the conversation message, the
   * transcript line, the event and the digest on the settle record. When its line cannot be
   * appended whole (a full disk), it rejects with `artifact_transcript_write_failed`: the result
   * is not part of the conversation (an artifact already written stays an orphan until pruned).
   */
  settleToolResult(
    output: ToolOutput,
    options?: { signal?: AbortSignal },
  ): Promise<{ content: string; artifact?: ArtifactRecord }>;
  /**
   * Makes the transcript safe to leave: when it ends on a tool message, one compact assistant
   * message is appended. Idempotent: however often it is called, at most one is added.
   */
  persist(options?: { signal?: AbortSignal }): Promise<void>;
}

/** Bytes read at a time when a transcript is loaded. */
const CHUNK_BYTES = 1 << 20;

/**
 * The longest transcript line held while it is read. A longer one cannot become a string (UTF-8
 * takes at most 3 bytes per UTF-16 unit, and a string holds at most ~512 Mi units), so it is
 * refused as soon as it runs past this instead of being held whole first.
 */
const MAX_LINE_BYTES = 3 * constants.MAX_STRING_LENGTH;

const RECORD_START = '{"type":"';

function isTranscriptRecord(value: unknown): value is TranscriptRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  if (record.type === 'message') {
    const message = record.message as Record<string, unknown> | null;
    return (
      typeof message === 'object' &&
      message !== null &&
      typeof message.role === 'string' &&
      typeof message.content === 'string'
    );
  }
  return (
    record.type === 'tool_settled' &&
    typeof record.toolCallId === 'string' &&
    typeof record.content === 'string' &&
    typeof record.digest === 'string'
  );
}

function parseRecord(text: string): TranscriptRecord | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isTranscriptRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Line `lineNumber` (from 1) of the transcript at `path`: a record, or nothing for a blank line
 * or one that holds no record (a warning says which). A line an older writer appended after a
 * torn one, without a newline between, is found after the torn bytes: a record starts with
 * `{"type":"`, which never occurs unescaped inside a JSON string. Only a settle record whose
 * content no longer matches its digest (an edit, not a crash) throws.
 */
function parseTranscriptLine(
  bytes: Buffer,
  lineNumber: number,
  path: string,
  warn: (message: string) => void,
): TranscriptRecord | undefined {
  const line = bytes.toString('utf8');
  if (line.trim() === '') return undefined;
  let record = parseRecord(line);
  if (!record) {
    for (let at = line.indexOf(RECORD_START, 1); at > 0; at = line.indexOf(RECORD_START, at + 1)) {
      record = parseRecord(line.slice(at));
      if (record) {
        warn(
          `${path}:${lineNumber}: skipped ${Buffer.byteLength(line.slice(0, at))} bytes of a torn line before a complete record`,
        );
        break;
      }
    }
  }
  if (!record) {
    warn(
      `${path}:${lineNumber}: skipped a torn line (${bytes.length} bytes that are not a transcript record)`,
    );
    return undefined;
  }
  if (record.type === 'tool_settled' && sha256Hex(record.content) !== record.digest) {
    throw new ArtifactError({
      code: 'artifact_transcript_invalid',
      message: `${path}:${lineNumber} content does not match its digest (tool call ${record.toolCallId})`,
      subject: path,
    });
  }
  return record;
}

/** Opens `path` for reading; `undefined` when it is absent. */
async function openIfPresent(path: string): Promise<FileHandle | undefined> {
  try {
    return await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Options of `loadTranscript`. */
export interface LoadTranscriptOptions {
  signal?: AbortSignal;
  /**
   * Receives a message naming the file and line of each line skipped: torn (by a crash or a
   * full disk), longer than a string can hold, or not a transcript record. Default: none.
   */
  onWarning?: (message: string) => void;
}

/**
 * `loadTranscript`, with the size of its reads and the longest line it holds settable (tests).
 * The file is read in chunks and split on `\n` as bytes, each line decoded on its own (a newline
 * byte is never part of a multi-byte character, so the lines are those of the whole text
 * decoded at once, a byte-order mark kept), so it is never one string: a transcript larger than
 * the 512 MiB a string can hold loads, and reading holds one chunk and the line being assembled.
 * The lines end at the last newline, found first from the end: the bytes after it are a torn
 * (or in-flight) append, skipped with a warning.
 */
export async function readTranscriptRecords(
  path: string,
  options: LoadTranscriptOptions & { chunkBytes?: number; maxLineBytes?: number } = {},
): Promise<TranscriptRecord[]> {
  const { signal } = options;
  const warn = options.onWarning ?? (() => {});
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  signal?.throwIfAborted();
  const handle = await openIfPresent(path);
  if (!handle) return [];
  const records: TranscriptRecord[] = [];
  let lineNumber = 0;
  try {
    const { size } = await handle.stat();
    const end = await endOfLastLine(handle, size, options);
    const splitter = createLineSplitter({ maxLineBytes });
    const onLine = (bytes: Buffer) => {
      lineNumber++;
      let record: TranscriptRecord | undefined;
      try {
        record = parseTranscriptLine(bytes, lineNumber, path, warn);
      } catch (error) {
        if (ArtifactError.isInstance(error)) throw error;
        // 512 Mi to 1.5 Gi bytes: too long to decode, so never written by a transcript.
        warn(
          `${path}:${lineNumber}: skipped a line of ${bytes.length} bytes, more than a string can hold`,
        );
      }
      if (record) records.push(record);
    };
    const onSkip = () => {
      lineNumber++;
      warn(
        `${path}:${lineNumber}: skipped a line longer than ${maxLineBytes} bytes, more than a string can hold`,
      );
    };
    // Cut short under us, the reading stops: what is left unfinished is a torn line, as on any
    // other load.
    for await (const data of readChunks(handle, 0, end, {
      chunkBytes: options.chunkBytes ?? CHUNK_BYTES,
      signal,
    })) {
      splitter.push(data, onLine, onSkip);
    }
    if (end < size) {
      warn(
        `${path}:${lineNumber + 1}: skipped the last ${size - end} bytes, a line without its newline (an append that crashed or is in progress)`,
      );
    }
  } finally {
    await handle.close();
  }
  return records;
}

/** The conversation a transcript's records replay to. Never reads an artifact. */
export function replayTranscript(records: readonly TranscriptRecord[]): TranscriptMessage[] {
  return records.map((record) =>
    record.type === 'message'
      ? record.message
      : {
          role: 'tool' as const,
          content: record.content,
          toolCallId: record.toolCallId,
          toolName: record.toolName,
        },
  );
}

/**
 * Reads a transcript, checking each settle digest; an absent file is an empty session. A line
 * that holds no record (torn by a crash or a full disk, or foreign) is skipped and reported to
 * `options.onWarning`, never fatal; a record an older writer fused onto a torn line is kept. A
 * settle record whose content no longer matches its digest throws `artifact_transcript_invalid`.
 * The file is read line by line, never as one string, so it may be larger than the 512 MiB a
 * string holds.
 */
export async function loadTranscript(
  path: string,
  options: LoadTranscriptOptions = {},
): Promise<TranscriptRecord[]> {
  return readTranscriptRecords(path, options);
}

/** The compact assistant message that closes a turn left ending on tool output. */
export function terminalAssistantMessage(
  messages: readonly TranscriptMessage[],
): TranscriptMessage {
  const tools: string[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]!.role === 'tool'; i--) {
    tools.unshift(messages[i]!.toolName ?? 'tool');
  }
  return {
    role: 'assistant',
    content: `Tool work completed (${tools.join(', ')}); no final answer was recorded for this turn.`,
  };
}

/**
 * Opens (or starts) the transcript at `settings.path`, replaying what is there. Replay reads
 * only the transcript: the `.artifacts` directory may be gone and the session still opens with
 * the same messages. Opening writes nothing: a torn last line stays where it is (another
 * process may still be appending it), and each append starts on a line of its own.
 */
export async function openSessionTranscript(
  settings: SessionTranscriptSettings,
): Promise<SessionTranscript> {
  const path = settings.path;
  const sessionId = transcriptStem(path);
  const warn =
    settings.onWarning ?? ((message) => process.emitWarning(message, 'CompactionWarning'));
  const records = await loadTranscript(path, { signal: settings.signal, onWarning: warn });
  const messages = replayTranscript(records);
  let store: ArtifactStore | undefined;
  const storeFor = () => {
    store ??=
      settings.store ??
      createArtifactStore({
        dir: artifactDirFor(path),
        ...(settings.fileSystem ? { fileSystem: settings.fileSystem } : {}),
      });
    return store;
  };
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => {});
    return run;
  };
  const write = (record: TranscriptRecord) =>
    appendLine(path, JSON.stringify(record), {
      code: 'artifact_transcript_write_failed',
      ...(settings.fileSystem ? { fileSystem: settings.fileSystem } : {}),
    });

  return {
    sessionId,
    path,
    messages: () => messages.map((message) => ({ ...message })),
    append(message, options = {}) {
      return serial(async () => {
        options.signal?.throwIfAborted();
        await write({ type: 'message', message });
        messages.push(message);
      });
    },
    settleToolResult(output, options = {}) {
      return serial(async () => {
        const activeStore = storeFor();
        const settled = await externalizeToolOutput(output, {
          sessionId,
          store: activeStore,
          ...(settings.inlineLimitChars !== undefined
            ? { inlineLimitChars: settings.inlineLimitChars }
            : {}),
          ...(settings.config ? { config: settings.config } : {}),
          ...(settings.policies ? { policies: settings.policies } : {}),
          ...(settings.clock ? { clock: settings.clock } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        });
        const content = settled.content;
        // The artifact file is on disk before this line names it.
        await write({
          type: 'tool_settled',
          toolCallId: output.toolCallId,
          toolName: output.toolName,
          content,
          digest: sha256Hex(content),
          artifact:
            settled.stored && settled.artifact
              ? { ...settled.stored, id: settled.artifact.id }
              : null,
        });
        messages.push({
          role: 'tool',
          content,
          toolCallId: output.toolCallId,
          toolName: output.toolName,
        });
        settings.onEvent?.({
          type: 'tool_result',
          toolCallId: output.toolCallId,
          toolName: output.toolName,
          content,
          ...(settled.artifact ? { artifact: settled.artifact } : {}),
        });
        return { content, ...(settled.artifact ? { artifact: settled.artifact } : {}) };
      });
    },
    persist(options = {}) {
      return serial(async () => {
        options.signal?.throwIfAborted();
        if (messages.at(-1)?.role !== 'tool') return;
        const closing = terminalAssistantMessage(messages);
        await write({ type: 'message', message: closing });
        messages.push(closing);
      });
    },
  };
}

/** Messages in OpenAI chat-completions shape, for the next request. */
export function toOpenAIChatMessages(messages: readonly TranscriptMessage[]): unknown[] {
  return messages.map((message) => {
    if (message.role === 'tool') {
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    }
    if (message.role === 'assistant' && message.toolCalls?.length) {
      return {
        role: 'assistant',
        content: message.content || null,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    }
    return { role: message.role, content: message.content };
  });
}
