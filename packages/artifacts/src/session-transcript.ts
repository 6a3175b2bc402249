import { constants } from 'node:buffer';
import { appendFile, type FileHandle, mkdir, open, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CompactionConfig } from '@compaction/core';
import { artifactDirFor, transcriptStem } from './artifact-dir-for.js';
import { ArtifactError } from './artifact-error.js';
import type { ArtifactRecord } from './artifact-record.js';
import { type ArtifactStore, createArtifactStore, type StoredArtifact } from './artifact-store.js';
import { endOfLastLine } from './end-of-last-line.js';
import { externalizeToolOutput } from './externalize-tool-output.js';
import { createLineSplitter } from './line-splitter.js';
import type { ProjectionPolicy, ToolOutput } from './projection-policy.js';
import { readChunks } from './read-chunks.js';
import { sha256Hex } from './sha256-hex.js';

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
  /** Appends a system, user or assistant message. */
  append(message: TranscriptMessage, options?: { signal?: AbortSignal }): Promise<void>;
  /**
   * Settles one tool result: the content is computed once (inline, or pointer and excerpt with
   * the full bytes written first), then the same string becomes the conversation message, the
   * transcript line, the event and the digest on the settle record.
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

/** Line `lineNumber` (from 1) of the transcript at `path`: a record, or nothing when empty. */
function parseTranscriptLine(
  line: string,
  lineNumber: number,
  path: string,
): TranscriptRecord | undefined {
  if (line === '') return undefined;
  let record: TranscriptRecord;
  try {
    record = JSON.parse(line) as TranscriptRecord;
  } catch (cause) {
    throw new ArtifactError({
      code: 'artifact_transcript_invalid',
      message: `${path}:${lineNumber} is not valid JSON`,
      subject: path,
      cause,
    });
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

/**
 * `loadTranscript`, with the size of its reads and the longest line it holds settable (tests).
 * The file is read in chunks and split on `\n` as bytes, each line decoded on its own (a newline
 * byte is never part of a multi-byte character, so the lines are those of the whole text
 * decoded at once, a byte-order mark kept), so it is never one string: a transcript larger than
 * the 512 MiB a string can hold loads, and reading holds one chunk and the line being assembled.
 * The lines end at the last newline, found first from the end: the bytes after it are a torn
 * append and are not read here.
 */
export async function readTranscriptRecords(
  path: string,
  options: { signal?: AbortSignal; chunkBytes?: number; maxLineBytes?: number } = {},
): Promise<TranscriptRecord[]> {
  const { signal } = options;
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  signal?.throwIfAborted();
  const handle = await openIfPresent(path);
  if (!handle) return [];
  const records: TranscriptRecord[] = [];
  let lineNumber = 0;
  const tooLong = (what: string, cause?: unknown) =>
    new ArtifactError({
      code: 'artifact_transcript_invalid',
      message: `${path}:${lineNumber} is ${what}, more than a string can hold`,
      subject: path,
      cause,
    });
  try {
    const { size } = await handle.stat();
    const end = await endOfLastLine(handle, size, options);
    const splitter = createLineSplitter({ maxLineBytes });
    const onLine = (bytes: Buffer) => {
      lineNumber++;
      let line: string;
      try {
        line = bytes.toString('utf8');
      } catch (cause) {
        throw tooLong(`${bytes.length} bytes long`, cause);
      }
      const record = parseTranscriptLine(line, lineNumber, path);
      if (record) records.push(record);
    };
    // Cut short under us, the reading stops: what is left unfinished is a torn line, as on any
    // other load.
    for await (const data of readChunks(handle, 0, end, {
      chunkBytes: options.chunkBytes ?? CHUNK_BYTES,
      signal,
    })) {
      splitter.push(data, onLine, () => {
        lineNumber++;
        throw tooLong(`longer than ${maxLineBytes} bytes`);
      });
    }
  } finally {
    await handle.close();
  }
  return records;
}

/**
 * Cuts a final line left without its newline by a crash mid-append, so the next append starts
 * clean. Only the end is read, backwards to the last newline (`endOfLastLine`).
 */
async function dropTornTail(path: string): Promise<void> {
  const handle = await openIfPresent(path);
  if (!handle) return;
  let size: number;
  let end: number;
  try {
    ({ size } = await handle.stat());
    end = await endOfLastLine(handle, size);
  } finally {
    await handle.close();
  }
  if (end < size) await truncate(path, end);
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
 * Reads a transcript, checking each settle digest; an absent file is an empty session, and a
 * final line without its newline (a torn append) is left out. The file is read line by line,
 * never as one string, so it may be larger than the 512 MiB a string holds.
 */
export async function loadTranscript(
  path: string,
  options: { signal?: AbortSignal } = {},
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
 * the same messages.
 */
export async function openSessionTranscript(
  settings: SessionTranscriptSettings,
): Promise<SessionTranscript> {
  const path = settings.path;
  const sessionId = transcriptStem(path);
  const records = await loadTranscript(path, { signal: settings.signal });
  await dropTornTail(path);
  const messages = replayTranscript(records);
  let store: ArtifactStore | undefined;
  const storeFor = () => {
    store ??= settings.store ?? createArtifactStore({ dir: artifactDirFor(path) });
    return store;
  };
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => {});
    return run;
  };
  const write = async (record: TranscriptRecord) => {
    await mkdir(dirname(path), { recursive: true });
    await appendFile(path, `${JSON.stringify(record)}\n`, 'utf8');
  };

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
