import type { JsonObject, JsonValue } from '@compaction/core';

/** A result's text and how to replace it, or `undefined` when the result has no text. */
export interface TextContent {
  text: string;
  replace(text: string): void;
}

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The text of `holder[key]` when it is a string, or an array whose parts of type `textType`
 * carry text: those parts read as one text, joined by newlines. Replacing puts the new text in
 * the first text part and drops the other text parts; images and other parts keep their
 * places. A `cache_control` breakpoint on a dropped part moves to the part that holds the text,
 * so the cached prefix still ends after this result.
 */
export function textContent(
  holder: JsonObject,
  key: string,
  textType: string,
): TextContent | undefined {
  const content = holder[key];
  if (typeof content === 'string') {
    return {
      text: content,
      replace(text) {
        holder[key] = text;
      },
    };
  }
  if (!Array.isArray(content)) return undefined;
  const parts = content.filter(
    (part): part is JsonObject =>
      isObject(part) && part.type === textType && typeof part.text === 'string',
  );
  if (parts.length === 0) return undefined;
  return {
    text: parts.map((part) => part.text as string).join('\n'),
    replace(text) {
      const first = parts[0]!;
      const breakpoint = parts.findLast((part) => part.cache_control !== undefined)?.cache_control;
      holder[key] = content.flatMap((part) => {
        if (part === first) {
          return [
            { ...first, text, ...(breakpoint === undefined ? {} : { cache_control: breakpoint }) },
          ];
        }
        return parts.includes(part as JsonObject) ? [] : [part];
      });
    },
  };
}

/** The text of a message's content: a string, or its parts of `textType`, joined by newlines. */
export function messageText(content: JsonValue | undefined, textTypes: readonly string[]): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((part) =>
      isObject(part) && textTypes.includes(part.type as string) && typeof part.text === 'string'
        ? [part.text]
        : [],
    )
    .join('\n');
}

export { isObject };
