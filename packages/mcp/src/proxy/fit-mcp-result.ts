import { type ResultProcessor, utf8ByteLength } from '@compaction/core';
import {
  type CallToolResult,
  ErrorCode,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { answerError } from './create-forwarder.js';
import type { McpCompactedResult } from './mcp-compacted-result.js';

/** Settings of `createMcpResultFitter`. */
export interface McpResultFitterSettings {
  /** Turns one text into its view within a byte budget (and stores it, in artifact mode). */
  processor: ResultProcessor;
  /** The most a result may weigh on the wire, in UTF-8 bytes of its JSON (binary payloads aside). */
  maxResultBytes: number;
  /** Called once per result that was rewritten. */
  onCompacted?: ((event: McpCompactedResult) => void) | undefined;
}

/** Fits tool results and resource reads into `maxResultBytes`; see `createMcpResultFitter`. */
export interface McpResultFitter {
  /** `result` as it is when it fits, else a rewritten result that does. */
  fitToolResult(
    result: CallToolResult,
    toolName: string,
    signal: AbortSignal,
  ): Promise<CallToolResult>;
  /** `result` of reading `uri` as it is when it fits, else a rewritten result that does. */
  fitResourceResult(
    result: ReadResourceResult,
    uri: string,
    signal: AbortSignal,
  ): Promise<ReadResourceResult>;
}

/** The texts of a result that may be replaced by views, and how to put the views back. */
interface Layout<R> {
  texts: string[];
  /** The result with `views[i]` in the place of `texts[i]`. */
  render(views: readonly string[]): R;
}

// More embedded resources (or resource contents) than this are stored together as one artifact:
// small parts are not worth a file and a pointer each.
const MAX_SEPARATE_TEXTS = 8;
// The least a text's view may weigh: a pointer line and a view worth reading (the structural
// trimmer needs 256 bytes, the pointer line about 300). Below it a text is grouped instead.
const MIN_VIEW_BYTES = 1024;
// Per text: what a part kept whole and one replaced may differ by besides the text (its
// mimeType), beyond the larger of the two.
const ENVELOPE_SLACK_BYTES = 64;

/**
 * UTF-8 bytes of `value` as JSON on the wire, less the base64 of images, audio and blobs, which
 * pass as they are (their characters need no escaping, so each counts its length).
 */
export function mcpWireBytes(value: unknown): number {
  let binary = 0;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if ((record.type === 'image' || record.type === 'audio') && typeof record.data === 'string') {
      binary += record.data.length;
    }
    if (typeof record.blob === 'string') binary += record.blob.length;
    if (Array.isArray(record.content)) visit(record.content);
    if (Array.isArray(record.contents)) visit(record.contents);
    if (record.resource !== undefined) visit(record.resource);
  };
  visit(value);
  return utf8ByteLength(JSON.stringify(value)) - binary;
}

/** UTF-8 bytes of `text` inside a JSON string, quotes aside (escapes counted). */
function jsonTextBytes(text: string): number {
  return utf8ByteLength(JSON.stringify(text)) - 2;
}

/**
 * Budgets for texts that together must fit `budget` bytes: the small ones keep their size, the
 * large ones share what is left equally (water filling), so one huge text does not starve a
 * short caption beside it.
 */
function shareBudget(sizes: readonly number[], budget: number): number[] {
  const order = sizes.map((_, i) => i).sort((a, b) => sizes[a]! - sizes[b]!);
  const shares = sizes.slice();
  let left = budget;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const fair = Math.floor(left / (order.length - k));
    shares[i] = Math.min(sizes[i]!, fair);
    left -= shares[i]!;
  }
  return shares;
}

function samePayload(text: string, structured: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(structured);
  } catch {
    return false;
  }
}

/**
 * Many texts as one document, each after a header line naming it, so that one artifact holds
 * them all and `artifact_search` finds each by its header.
 */
function groupTexts(
  items: ReadonlyArray<{ uri: string; mimeType?: string; text: string }>,
): string {
  const total = items.reduce((sum, item) => sum + utf8ByteLength(item.text), 0);
  const lines = [
    `${items.length} embedded text resources, ${total} bytes in all; each begins with a line "==> [k/${items.length}] <uri> <==".`,
  ];
  items.forEach((item, k) => {
    lines.push(
      `==> [${k + 1}/${items.length}] ${item.uri}${item.mimeType ? ` (${item.mimeType})` : ''} <==`,
    );
    lines.push(item.text.endsWith('\n') ? item.text.slice(0, -1) : item.text);
  });
  return lines.join('\n');
}

type Part = CallToolResult['content'][number];
type TextResourcePart = Part & { type: 'resource'; resource: { uri: string; text: string } };
type TextContents = ReadResourceResult['contents'][number] & { text: string };

const isTextResource = (part: Part): part is TextResourcePart =>
  part.type === 'resource' && typeof (part.resource as { text?: unknown }).text === 'string';

/**
 * A tool result's texts: its text parts as one (joined by newlines, in the place of the first),
 * its `structuredContent` when it is not the same payload as those (its view becomes a text
 * part at the end, and it is dropped), and its embedded text resources, each in its place, or
 * with `group` all of them as one document in the place of the first. A rewritten result
 * drops `structuredContent` in every case.
 */
function toolLayout(result: CallToolResult, group: boolean): Layout<CallToolResult> {
  const content = result.content ?? [];
  const textAt = content.findIndex((part) => part.type === 'text');
  const textParts = content.filter((part) => part.type === 'text');
  const { structuredContent, ...rest } = result;
  let main: string | undefined =
    textParts.length > 0 ? textParts.map((p) => p.text).join('\n') : undefined;
  let structured: string | undefined;
  if (structuredContent !== undefined) {
    const json = JSON.stringify(structuredContent);
    if (main === undefined) main = json;
    else if (!samePayload(main, structuredContent)) structured = json;
  }
  const resources = content.filter(isTextResource);
  const resourceTexts = group
    ? [
        groupTexts(
          resources.map(({ resource }) => ({
            uri: resource.uri,
            text: resource.text,
            ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
          })),
        ),
      ]
    : resources.map((part) => part.resource.text);
  const texts = [
    ...(main === undefined ? [] : [main]),
    ...(structured === undefined ? [] : [structured]),
    ...resourceTexts,
  ];
  return {
    texts,
    render(views) {
      let at = 0;
      const mainView = main === undefined ? undefined : views[at++]!;
      const structuredView = structured === undefined ? undefined : views[at++]!;
      const resourceViews = views.slice(at);
      const parts: Part[] = [];
      const mainText = (text: string): Part => ({ type: 'text', text });
      if (mainView !== undefined && textAt < 0) parts.push(mainText(mainView));
      let resource = 0;
      content.forEach((part, i) => {
        if (part.type === 'text') {
          if (i === textAt) parts.push(mainText(mainView!));
          return;
        }
        if (!isTextResource(part)) {
          parts.push(part);
          return;
        }
        const k = resource++;
        if (group) {
          if (k === 0) parts.push({ type: 'text', text: resourceViews[0]! });
          return;
        }
        const view = resourceViews[k]!;
        parts.push(
          view === part.resource.text
            ? part
            : { ...part, resource: { ...part.resource, mimeType: 'text/plain', text: view } },
        );
      });
      if (structuredView !== undefined) parts.push({ type: 'text', text: structuredView });
      return { ...rest, content: parts };
    },
  };
}

/** A resource read's text contents, each in its place, or with `group` as one under `uri`. */
function resourceLayout(
  result: ReadResourceResult,
  uri: string,
  group: boolean,
): Layout<ReadResourceResult> {
  const isText = (content: ReadResourceResult['contents'][number]): content is TextContents =>
    typeof (content as { text?: unknown }).text === 'string';
  const texts = result.contents.filter(isText);
  return {
    texts: group
      ? [
          groupTexts(
            texts.map((content) => ({
              uri: content.uri,
              text: content.text,
              ...(content.mimeType ? { mimeType: content.mimeType } : {}),
            })),
          ),
        ]
      : texts.map((content) => content.text),
    render(views) {
      let k = 0;
      const contents: ReadResourceResult['contents'] = [];
      for (const content of result.contents) {
        if (!isText(content)) {
          contents.push(content);
          continue;
        }
        const index = k++;
        if (group) {
          if (index === 0) contents.push({ uri, mimeType: 'text/plain', text: views[0]! });
          continue;
        }
        contents.push(
          views[index] === content.text
            ? content
            : { ...content, mimeType: 'text/plain', text: views[index]! },
        );
      }
      return { ...result, contents };
    },
  };
}

/**
 * Fits MCP results into a byte budget measured as the client reads them: the JSON of the whole
 * result, escapes and envelopes included, less the base64 of images, audio and blobs (which
 * pass whole). A result that fits is returned as it is. Otherwise its texts become the
 * processor's views (each stored whole in artifact mode, with its pointer and disclosure note):
 * each text in its place while there are at most 8 and each view can be at least 1 KB; else
 * the embedded resources (or contents) as one document, one artifact; and when even that cannot
 * fit (thousands of images, say), the whole result as JSON, one text. Time is linear in the
 * result's size and at most three texts are stored per layout tried.
 */
export function createMcpResultFitter(settings: McpResultFitterSettings): McpResultFitter {
  const { processor, maxResultBytes } = settings;
  let calls = 0;

  const stepId = (name: string) =>
    `call-${++calls}-${name.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 64)}`;

  /** A view of `text` whose JSON string weighs at most `share` bytes, or undefined. */
  const viewOf = async (
    text: string,
    share: number,
    context: { toolName: string; stepId: string; signal: AbortSignal },
    lost: { value: boolean },
  ): Promise<string | undefined> => {
    // Escapes (quotes, newlines, control characters) weigh more on the wire than in the text:
    // the view gets the budget the text's own ratio leaves, and less if it still comes out over.
    const ratio = jsonTextBytes(text) / Math.max(1, utf8ByteLength(text));
    let budget = Math.floor(share / ratio);
    for (let attempt = 0; attempt < 4 && budget > 0; attempt++) {
      const processed = await processor.process(text, budget, context);
      const bytes = jsonTextBytes(processed.text);
      if (bytes <= share) {
        if (processed.metadata.contentLost) lost.value = true;
        return processed.text;
      }
      budget = Math.floor((budget * share) / bytes) - 16;
    }
    return undefined;
  };

  const fit = async <R>(
    original: R,
    layouts: ReadonlyArray<() => Layout<R>>,
    name: string,
    signal: AbortSignal,
  ): Promise<R> => {
    const originalBytes = mcpWireBytes(original);
    if (originalBytes <= maxResultBytes) return original;
    for (const [index, make] of layouts.entries()) {
      const last = index === layouts.length - 1;
      const layout = make();
      const sizes = layout.texts.map(jsonTextBytes);
      // What the result weighs besides its texts, whether each text is kept or replaced (a
      // replaced resource says text/plain), with a little room for a mix of the two.
      const envelope = Math.max(
        mcpWireBytes(layout.render(layout.texts.map(() => ''))),
        mcpWireBytes(layout.render(layout.texts)) - sizes.reduce((sum, size) => sum + size, 0),
      );
      const room = maxResultBytes - envelope - ENVELOPE_SLACK_BYTES * layout.texts.length;
      if (room <= 0) continue;
      const shares = shareBudget(sizes, room);
      if (!last && shares.some((share, i) => share < sizes[i]! && share < MIN_VIEW_BYTES)) continue;
      const lost = { value: false };
      const id = stepId(name);
      const views: string[] = [];
      for (const [i, text] of layout.texts.entries()) {
        signal.throwIfAborted();
        const view =
          shares[i]! >= sizes[i]!
            ? text
            : await viewOf(
                text,
                shares[i]!,
                { toolName: name, stepId: layout.texts.length > 1 ? `${id}-${i + 1}` : id, signal },
                lost,
              );
        if (view === undefined) break;
        views.push(view);
      }
      if (views.length < layout.texts.length) continue;
      const answer = layout.render(views);
      const outputBytes = mcpWireBytes(answer);
      if (outputBytes > maxResultBytes) continue;
      settings.onCompacted?.({
        toolName: name,
        originalBytes,
        outputBytes,
        contentLost: lost.value,
      });
      return answer;
    }
    throw answerError(
      ErrorCode.InternalError,
      `the result of ${name} (${originalBytes} bytes) cannot be shown within ${maxResultBytes} bytes (maxResultBytes)`,
    );
  };

  return {
    fitToolResult(result, toolName, signal) {
      const resources = (result.content ?? []).filter(isTextResource).length;
      const whole = (): Layout<CallToolResult> => ({
        texts: [JSON.stringify(result)],
        render: ([view]) => ({
          ...(result._meta === undefined ? {} : { _meta: result._meta }),
          content: [{ type: 'text', text: view! }],
          ...(result.isError ? { isError: true } : {}),
        }),
      });
      return fit(
        result,
        [
          ...(resources <= MAX_SEPARATE_TEXTS ? [() => toolLayout(result, false)] : []),
          ...(resources > 1 ? [() => toolLayout(result, true)] : []),
          whole,
        ],
        toolName,
        signal,
      );
    },
    fitResourceResult(result, uri, signal) {
      const texts = result.contents.filter((content) => 'text' in content).length;
      const whole = (): Layout<ReadResourceResult> => ({
        texts: [JSON.stringify(result)],
        render: ([view]) => ({
          ...(result._meta === undefined ? {} : { _meta: result._meta }),
          contents: [{ uri, mimeType: 'text/plain', text: view! }],
        }),
      });
      return fit(
        result,
        [
          ...(texts <= MAX_SEPARATE_TEXTS ? [() => resourceLayout(result, uri, false)] : []),
          ...(texts > 1 ? [() => resourceLayout(result, uri, true)] : []),
          whole,
        ],
        `resources/read ${uri}`,
        signal,
      );
    },
  };
}
