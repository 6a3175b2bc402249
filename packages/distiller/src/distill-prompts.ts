/**
 * Version of the prompts below. It is part of every cache key, so changing a prompt must bump
 * it, or cached distillations made under the old wording would be served.
 */
export const DISTILL_PROMPT_VERSION = 'distill-prompt-v2';

const FIDELITY_RULES = `Rules:
- Copy identifiers, keys, names, timestamps and numeric values byte for byte exactly as they appear in the source. Never round, reformat, abbreviate or convert them (a 19-digit id stays 19 digits).
- On evidence-style data (records, log lines, table rows, search hits), select the units that match the request and copy each one whole and verbatim instead of paraphrasing it.
- Never invent content that is not in the source. If nothing in it is relevant, say so in one line and name what the source contains.
- Lead with what answers the request; drop boilerplate, repetition and fields that do not bear on it.`;

/** Instructions for distilling one source (or one segment of it) to about `targetBytes`. */
export function distillSystemPrompt(targetBytes: number): string {
  return `You distill a tool result for another model, which will use your output instead of the result to answer a user's request.
${FIDELITY_RULES}
- Keep your answer under about ${targetBytes} bytes. If more matching units exist than fit, end with exactly one line: [truncated: N additional matching units omitted to fit budget; they are UNKNOWN, not absent]`;
}

/** Instructions for combining the extracts of several segments into one summary. */
export function reduceSystemPrompt(targetBytes: number): string {
  return `You combine extracts that were taken from consecutive segments of one large tool result into a single distillation for another model, which will use it to answer a user's request.
${FIDELITY_RULES}
- Merge duplicates, keep the source order of evidence, and keep every distinct finding that bears on the request.
- Keep your answer under about ${targetBytes} bytes. If more matching units exist than fit, end with exactly one line: [truncated: N additional matching units omitted to fit budget; they are UNKNOWN, not absent]`;
}

/** What a distill call is conditioned on. */
export interface DistillPromptContext {
  userQuery?: string | undefined;
  stepTask?: string | undefined;
  toolName?: string | undefined;
}

function header(context: DistillPromptContext): string {
  const lines = [`User request: ${context.userQuery?.trim() || '(not given)'}`];
  if (context.stepTask?.trim()) lines.push(`Step task: ${context.stepTask.trim()}`);
  if (context.toolName?.trim()) lines.push(`Tool: ${context.toolName.trim()}`);
  return lines.join('\n');
}

/** The user message for one source or segment. */
export function distillUserPrompt(
  source: string,
  context: DistillPromptContext,
  segment?: { index: number; total: number },
): string {
  const what = segment
    ? `Segment ${segment.index} of ${segment.total} of the tool result`
    : 'Tool result';
  return `${header(context)}\n\n${what} (between the markers):\n<<<SOURCE\n${source}\nSOURCE>>>`;
}

/** The user message that combines segment extracts. */
export function reduceUserPrompt(
  extracts: ReadonlyArray<{ index: number; text: string }>,
  total: number,
  context: DistillPromptContext,
): string {
  const body = extracts
    .map((extract) => `### Extract of segment ${extract.index} of ${total}\n${extract.text}`)
    .join('\n\n');
  return `${header(context)}\n\n${body}`;
}
