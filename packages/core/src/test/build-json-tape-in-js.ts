import {
  type JsonTape,
  TAPE_ARRAY,
  TAPE_END,
  TAPE_ESCAPED_KEY,
  TAPE_ESCAPED_VALUE,
  TAPE_FLAGS,
  TAPE_KEY_END,
  TAPE_KEY_START,
  TAPE_KIND,
  TAPE_LITERAL,
  TAPE_NEXT,
  TAPE_NON_ASCII_KEY,
  TAPE_NON_ASCII_VALUE,
  TAPE_NUMBER,
  TAPE_OBJECT,
  TAPE_SIZE,
  TAPE_START,
  TAPE_STRIDE,
  TAPE_STRING,
} from '../json/json-tape.js';

const BOM = '\uFEFF';
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function isNumberUnit(code: number): boolean {
  // Digits, '+', '-', '.', 'e', 'E': every unit a valid number token can contain.
  return (
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2b ||
    code === 0x2d ||
    code === 0x2e ||
    code === 0x65 ||
    code === 0x45
  );
}

/**
 * Builds the `JsonTape` of a JSON text in plain JavaScript, one unit at a time: the reference
 * that faster tape builders are tested against. Returns undefined when `JSON.parse` rejects the
 * text. A leading byte-order mark is removed first, as `parseJsonLossless` does, and the tape's
 * `text` is the text without it. Handles any nesting depth (no recursion).
 */
export function buildJsonTapeInJs(text: string): JsonTape | undefined {
  const source = text.startsWith(BOM) ? text.slice(1) : text;
  try {
    JSON.parse(source);
  } catch {
    return undefined;
  }

  let records = new Int32Array(TAPE_STRIDE * 64);
  let count = 0;
  // Record indices of the containers opened and not yet closed, innermost last.
  const open: number[] = [];
  let pos = 0;

  const skipWhitespace = (): void => {
    while (pos < source.length && isWhitespace(source.charCodeAt(pos))) pos++;
  };

  // Index just past the closing quote of the string whose opening quote is at `pos`, and
  // whether it contains a backslash.
  const scanString = (): { end: number; escaped: boolean; nonAscii: boolean } => {
    let i = pos + 1;
    let escaped = false;
    let nonAscii = false;
    for (;;) {
      const code = source.charCodeAt(i);
      if (code === BACKSLASH) {
        escaped = true;
        i += 2;
      } else if (code === QUOTE) {
        return { end: i + 1, escaped, nonAscii };
      } else {
        if (code >= 0x80) nonAscii = true;
        i++;
      }
    }
  };

  const addRecord = (kind: number, keyStart: number, keyEnd: number, flags: number): number => {
    if ((count + 1) * TAPE_STRIDE > records.length) {
      const grown = new Int32Array(records.length * 2);
      grown.set(records);
      records = grown;
    }
    const index = count++;
    const base = index * TAPE_STRIDE;
    records[base + TAPE_KIND] = kind;
    records[base + TAPE_START] = pos;
    records[base + TAPE_END] = -1;
    records[base + TAPE_NEXT] = -1;
    records[base + TAPE_SIZE] = 0;
    records[base + TAPE_KEY_START] = keyStart;
    records[base + TAPE_KEY_END] = keyEnd;
    records[base + TAPE_FLAGS] = flags;
    if (open.length > 0) records[open[open.length - 1]! * TAPE_STRIDE + TAPE_SIZE]! += 1;
    return index;
  };

  const finish = (index: number, end: number): void => {
    records[index * TAPE_STRIDE + TAPE_END] = end;
    records[index * TAPE_STRIDE + TAPE_NEXT] = count;
  };

  // Reads the value at `pos` (after whitespace). A container is opened and left on `open`.
  const readValue = (keyStart: number, keyEnd: number, keyFlags: number): void => {
    skipWhitespace();
    const code = source.charCodeAt(pos);
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      const index = addRecord(
        code === OPEN_BRACE ? TAPE_OBJECT : TAPE_ARRAY,
        keyStart,
        keyEnd,
        keyFlags,
      );
      open.push(index);
      pos++;
      return;
    }
    if (code === QUOTE) {
      const { end, escaped, nonAscii } = scanString();
      const index = addRecord(
        TAPE_STRING,
        keyStart,
        keyEnd,
        keyFlags | (escaped ? TAPE_ESCAPED_VALUE : 0) | (nonAscii ? TAPE_NON_ASCII_VALUE : 0),
      );
      pos = end;
      finish(index, end);
      return;
    }
    const isLiteral = code === 0x74 || code === 0x66 || code === 0x6e; // t, f, n
    const index = addRecord(isLiteral ? TAPE_LITERAL : TAPE_NUMBER, keyStart, keyEnd, keyFlags);
    if (isLiteral) {
      pos += code === 0x66 ? 5 : 4;
    } else {
      while (pos < source.length && isNumberUnit(source.charCodeAt(pos))) pos++;
    }
    finish(index, pos);
  };

  // Reads `"key" :` and then the member's value.
  const readMember = (): void => {
    skipWhitespace();
    const keyStart = pos;
    const { end, escaped, nonAscii } = scanString();
    pos = end;
    skipWhitespace();
    if (source.charCodeAt(pos) !== COLON) throw new Error(`expected ':' at ${pos}`);
    pos++;
    readValue(
      keyStart,
      end,
      (escaped ? TAPE_ESCAPED_KEY : 0) | (nonAscii ? TAPE_NON_ASCII_KEY : 0),
    );
  };

  // Reads the first member or item of the container just opened, or closes it when empty.
  const readFirst = (): void => {
    const container = open[open.length - 1]!;
    skipWhitespace();
    const code = source.charCodeAt(pos);
    if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      open.pop();
      pos++;
      finish(container, pos);
    } else if (records[container * TAPE_STRIDE + TAPE_KIND] === TAPE_OBJECT) {
      readMember();
    } else {
      readValue(-1, -1, 0);
    }
  };

  readValue(-1, -1, 0);
  // A container just opened still has its first child (or its close) to read.
  let justOpened = open.length > 0;
  while (open.length > 0) {
    const depthBefore = open.length;
    if (justOpened) {
      readFirst();
    } else {
      const container = open[open.length - 1]!;
      skipWhitespace();
      const code = source.charCodeAt(pos);
      if (code === COMMA) {
        pos++;
        if (records[container * TAPE_STRIDE + TAPE_KIND] === TAPE_OBJECT) readMember();
        else readValue(-1, -1, 0);
      } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        open.pop();
        pos++;
        finish(container, pos);
      } else {
        throw new Error(`unexpected unit at ${pos}`);
      }
    }
    justOpened = open.length > depthBefore;
  }
  return { text: source, count, records: records.slice(0, count * TAPE_STRIDE) };
}
