import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import {
  type ArtifactToolset,
  type JsonObject,
  parseJsonLossless,
  stringifyJsonLossless,
} from '@compaction/core';
import { answerHeaders, upstreamHeaders, upstreamTarget } from './forward-to-upstream.js';
import { parseServerSentEvents } from './wire/server-sent-events.js';
import type { WireFormat, WireToolAnswer, WireToolCall } from './wire/wire-tool-result.js';

/** A request whose tools the proxy extended, and how to answer the calls of those tools. */
export interface ArtifactCallsRequest {
  /** The upstream base URL. */
  upstream: URL;
  /** The request's path and query (less the proxy's token prefix). */
  path: string;
  /** The compacted request body, the artifact tools among its tools; each round is appended to it. */
  body: JsonObject;
  /** `body` serialized, as the first round sends it. */
  bytes: Buffer;
  /** Its wire format. */
  format: WireFormat;
  /** The conversation's artifact tools: the calls of these the proxy answers. */
  tools: ArtifactToolset;
  /** Rounds of calls the proxy answers before it hands the response to the client. */
  maxRounds: number;
  /** Request headers that are the proxy's own and not forwarded (lowercase). */
  dropHeaders: ReadonlySet<string>;
  /** Keep-alive agents for http and https upstreams. */
  agents: { http: http.Agent; https: https.Agent };
  /** Called when the upstream cannot be reached, before anything was sent to the client. */
  onUnreachable(error: Error): void;
}

/** What answering a request's artifact tool calls took. */
export interface ArtifactCallsOutcome {
  /** Upstream calls made (1 when the model called none of the proxy's tools). */
  upstreamCalls: number;
  /** Calls of the artifact tools the proxy answered. */
  answered: number;
}

interface BufferedAnswer {
  status: number;
  statusMessage: string;
  rawHeaders: string[];
  body: Buffer;
}

function post(
  target: URL,
  headers: Record<string, string | string[]>,
  body: Buffer,
  agents: ArtifactCallsRequest['agents'],
  signal: AbortSignal,
): Promise<BufferedAnswer> {
  return new Promise((done, fail) => {
    const secure = target.protocol === 'https:';
    const request = (secure ? https : http).request(target, {
      method: 'POST',
      headers,
      agent: secure ? agents.https : agents.http,
      signal,
    });
    request.on('response', (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () =>
        done({
          status: answer.statusCode ?? 502,
          statusMessage: answer.statusMessage ?? '',
          rawHeaders: answer.rawHeaders,
          body: Buffer.concat(chunks),
        }),
      );
      answer.on('error', fail);
    });
    request.on('error', fail);
    request.end(body);
  });
}

const isEventStream = (answer: BufferedAnswer) =>
  answer.rawHeaders.some(
    (value, i) =>
      i % 2 === 1 &&
      answer.rawHeaders[i - 1]!.toLowerCase() === 'content-type' &&
      value.startsWith('text/event-stream'),
  );

function jsonObject(answer: BufferedAnswer): JsonObject | undefined {
  const parsed = parseJsonLossless(answer.body.toString('utf8'));
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return undefined;
  return Array.isArray(parsed.value) ? undefined : (parsed.value as JsonObject);
}

async function answerCall(
  tools: ArtifactToolset,
  call: WireToolCall,
  signal: AbortSignal,
): Promise<WireToolAnswer> {
  try {
    const text = await tools.call(call.name, call.arguments, { signal });
    return { id: call.id, text, failed: text.startsWith('error: ') };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { id: call.id, text: `error: the artifact could not be read: ${reason}`, failed: true };
  }
}

/**
 * Sends a request upstream and answers, round after round, the model's calls of the
 * artifact tools the proxy added: each answer is read from the conversation's store, the
 * model's turn and the answers are appended to the request, and the upstream is called again,
 * until a response calls none of them (or `maxRounds` rounds were answered). Only that last
 * response reaches the client, so the client never sees the proxy's tools or their calls. A
 * turn that also calls the client's tools cannot go on without the client's results: it goes
 * to the client with the proxy's calls removed (the model is not told; it may call again).
 * Answers that are not a 200 JSON body or event stream pass through as they came. A streamed
 * answer is held until it ends, since only its end says whether the turn was the proxy's: the
 * client's first byte waits for the whole turn; a streamed turn that also calls the client's
 * tools, or the last one allowed, goes to the client re-written without the proxy's calls.
 */
export async function answerArtifactCalls(
  req: IncomingMessage,
  res: ServerResponse,
  request: ArtifactCallsRequest,
): Promise<ArtifactCallsOutcome> {
  const { body, format, tools } = request;
  const own = new Set(tools.definitions.map((definition) => definition.name));
  const target = upstreamTarget(request.upstream, request.path);
  const gone = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) gone.abort(new Error('the client went away'));
  };
  res.on('close', onClose);
  const outcome: ArtifactCallsOutcome = { upstreamCalls: 0, answered: 0 };
  const reply = (answer: BufferedAnswer, sent: Buffer) => {
    const headers = answerHeaders(answer.rawHeaders, new Set(['content-length']));
    res.writeHead(answer.status, answer.statusMessage, [
      ...headers,
      'content-length',
      String(sent.length),
    ]);
    res.end(sent);
  };
  try {
    for (let round = 0; ; round++) {
      const sent = round === 0 ? request.bytes : Buffer.from(stringifyJsonLossless(body), 'utf8');
      // The answer is read here, so it must come unencoded.
      const headers = upstreamHeaders(req, request.dropHeaders, sent);
      headers['accept-encoding'] = 'identity';
      let answer: BufferedAnswer;
      try {
        answer = await post(target, headers, sent, request.agents, gone.signal);
      } catch (error) {
        if (!gone.signal.aborted)
          request.onUnreachable(error instanceof Error ? error : new Error(String(error)));
        return outcome;
      }
      outcome.upstreamCalls++;
      const events =
        answer.status === 200 && isEventStream(answer)
          ? parseServerSentEvents(answer.body.toString('utf8'))
          : undefined;
      const response =
        answer.status !== 200
          ? undefined
          : events
            ? format.streamedResponse(events)
            : jsonObject(answer);
      const calls = response ? format.toolCalls(response) : [];
      const ours = calls.filter((call) => own.has(call.name));
      if (!response || ours.length === 0) {
        reply(answer, answer.body);
        return outcome;
      }
      if (ours.length === calls.length && round < request.maxRounds) {
        const answers: WireToolAnswer[] = [];
        for (const call of ours) answers.push(await answerCall(tools, call, gone.signal));
        if (gone.signal.aborted) return outcome;
        outcome.answered += answers.length;
        format.continueWith(body, response, answers);
        continue;
      }
      const dropped = new Set(ours.map((call) => call.id));
      if (events) {
        reply(answer, Buffer.from(format.dropStreamedToolCalls(events, dropped), 'utf8'));
        return outcome;
      }
      format.dropToolCalls(response, dropped);
      reply(answer, Buffer.from(stringifyJsonLossless(response), 'utf8'));
      return outcome;
    }
  } finally {
    res.off('close', onClose);
  }
}
