import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';

/** What can be told of a line too long to read: from its first bytes and, once it ends, its last. */
export interface OversizedLine {
  /** Bytes of the line seen so far (all of it, newline excluded, when `ended`). */
  bytes: number;
  /** True once the line's newline has arrived. */
  ended: boolean;
  /**
   * `response` when the line is a JSON-RPC answer (a `result` or `error` member came before any
   * `method`), `request` when it names a `method`, `unknown` when its start tells neither.
   */
  kind: 'response' | 'request' | 'unknown';
  /** The message's `id`, when a top-level `id` member was seen at its start or (once ended) its end. */
  id?: RequestId;
}

/** Settings of `createJsonRpcLineReader`. */
export interface JsonRpcLineReaderSettings {
  /** The longest line read, in bytes, its newline excluded. Longer lines are skipped as they arrive. */
  maxMessageBytes: number;
  /** Each message, in order. */
  onMessage: (message: JSONRPCMessage) => void;
  /** A line that is not a JSON-RPC message. */
  onError: (error: Error) => void;
  /**
   * A line over `maxMessageBytes`: called once as soon as it is known to be too long (`ended`
   * false, unless the chunk that showed it also ended it) and once more when its newline comes.
   */
  onOversized: (line: OversizedLine) => void;
}

/** Splits a stream of newline-delimited JSON-RPC into messages; see `createJsonRpcLineReader`. */
export interface JsonRpcLineReader {
  /** Reads `chunk`, calling back for each line it completes. */
  push(chunk: Buffer): void;
  /** Drops the unfinished line. */
  clear(): void;
}

// How much of a skipped line's start and end is kept to tell what it was.
const EDGE_BYTES = 1024;

/**
 * The top-level members at the start of a JSON object, up to the first whose value is not a
 * short scalar: `{"jsonrpc":"2.0","id":7,"result":{…` gives jsonrpc, id and the key `result`.
 */
function leadingMembers(head: string): { keys: string[]; id?: RequestId } {
  const keys: string[] = [];
  let id: RequestId | undefined;
  const member =
    /\s*[{,]\s*"((?:[^"\\]|\\.)*)"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)?/y;
  let at = 0;
  for (;;) {
    member.lastIndex = at;
    const match = member.exec(head);
    if (!match) break;
    keys.push(match[1]!);
    if (match[2] === undefined) break;
    if (match[1] === 'id') id = JSON.parse(match[2]) as RequestId;
    at = member.lastIndex;
  }
  return id === undefined ? { keys } : { keys, id };
}

/** The `id` member that closes a JSON object, as the TypeScript SDK writes answers: `…,"id":7}`. */
function trailingId(tail: string): RequestId | undefined {
  const match =
    /,\s*"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$/.exec(
      tail,
    );
  return match ? (JSON.parse(match[1]!) as RequestId) : undefined;
}

function describe(head: Buffer, tail: Buffer | undefined, bytes: number): OversizedLine {
  const start = leadingMembers(head.toString('utf8'));
  const method = start.keys.includes('method');
  const answer = start.keys.includes('result') || start.keys.includes('error');
  const id = start.id ?? (tail ? trailingId(tail.toString('utf8')) : undefined);
  return {
    bytes,
    ended: tail !== undefined,
    kind: method ? 'request' : answer ? 'response' : 'unknown',
    ...(id === undefined ? {} : { id }),
  };
}

/**
 * Newline-delimited JSON-RPC, as MCP's stdio transport writes it, read in time linear in the
 * bytes: each chunk is scanned once and a line is joined once. A line longer than
 * `maxMessageBytes` is never held: its first and last kilobyte are kept to say what it was
 * (`onOversized`), its other bytes are let go as they arrive, and reading goes on after its
 * newline, so one huge or endless line costs neither the memory nor the connection.
 */
export function createJsonRpcLineReader(settings: JsonRpcLineReaderSettings): JsonRpcLineReader {
  const { maxMessageBytes } = settings;
  let pieces: Buffer[] = [];
  let held = 0;
  // While a line is skipped: its first bytes, its last bytes and its length so far.
  let skipped: { head: Buffer; tail: Buffer; bytes: number } | undefined;

  const deliver = (line: Buffer) => {
    let text = line.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(text);
    } catch (error) {
      const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
      settings.onError(
        new Error(`not a JSON-RPC message: ${JSON.stringify(shown)}`, { cause: error }),
      );
      return;
    }
    settings.onMessage(message);
  };

  const keepTail = (tail: Buffer, more: Buffer): Buffer => {
    if (more.length >= EDGE_BYTES) return Buffer.from(more.subarray(more.length - EDGE_BYTES));
    const joined = Buffer.concat([tail, more]);
    return joined.length > EDGE_BYTES ? joined.subarray(joined.length - EDGE_BYTES) : joined;
  };

  /** Goes on skipping with `part` (a piece of the skipped line); `ended` when its newline came. */
  const skip = (part: Buffer, ended: boolean) => {
    const line = skipped!;
    line.bytes += part.length;
    line.tail = keepTail(line.tail, part);
    if (ended) {
      skipped = undefined;
      settings.onOversized(describe(line.head, line.tail, line.bytes));
    }
  };

  /** The unfinished line (held pieces plus `part`) is over the limit: start skipping it. */
  const startSkipping = (part: Buffer, ended: boolean) => {
    const all = [...pieces, part];
    const bytes = held + part.length;
    pieces = [];
    held = 0;
    const edge = (from: Buffer[]) => {
      const taken: Buffer[] = [];
      let length = 0;
      for (const piece of from) {
        if (length >= EDGE_BYTES) break;
        taken.push(piece);
        length += piece.length;
      }
      return taken;
    };
    const head = Buffer.from(Buffer.concat(edge(all)).subarray(0, EDGE_BYTES));
    const last = Buffer.concat(edge(all.slice().reverse()).reverse());
    const tail = Buffer.from(last.subarray(Math.max(0, last.length - EDGE_BYTES)));
    if (ended) settings.onOversized(describe(head, tail, bytes));
    else {
      skipped = { head, tail, bytes };
      settings.onOversized(describe(head, undefined, bytes));
    }
  };

  return {
    push(chunk) {
      let start = 0;
      for (let newline = chunk.indexOf(0x0a); newline >= 0; newline = chunk.indexOf(0x0a, start)) {
        const part = chunk.subarray(start, newline);
        start = newline + 1;
        if (skipped) skip(part, true);
        else if (held + part.length > maxMessageBytes) startSkipping(part, true);
        else {
          const line = held === 0 ? part : Buffer.concat([...pieces, part], held + part.length);
          pieces = [];
          held = 0;
          deliver(line);
        }
      }
      if (start === chunk.length) return;
      const rest = chunk.subarray(start);
      if (skipped) skip(rest, false);
      else if (held + rest.length > maxMessageBytes) startSkipping(rest, false);
      else {
        // Copied: the stream may reuse the chunk's memory.
        pieces.push(Buffer.from(rest));
        held += rest.length;
      }
    },
    clear() {
      pieces = [];
      held = 0;
      skipped = undefined;
    },
  };
}
