import type { ProcessedResult } from '@compaction/core';
import {
  ESCAPES_REMOVED_SEGMENT,
  stripDisclosureNotes,
  trailingDisclosureNotes,
  utf8ByteLength,
} from '@compaction/core';
import { expect } from 'vitest';
import { parseCutLineMarker } from '../engine/cut-line-marker.js';
import { parseOmittedLinesMarker } from '../engine/omitted-lines-marker.js';
import { neutralizeMarkerLine } from '../engine/select-text.js';
import { stripTerminalEscapes } from '../readers/strip-terminal-escapes.js';

const STRING_OR_NUMBER = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/** Number tokens of a JSON text, outside strings, in order. */
export function numberTokens(json: string): string[] {
  const tokens: string[] = [];
  for (const match of json.matchAll(STRING_OR_NUMBER)) {
    if (match[0].charCodeAt(0) !== 34) tokens.push(match[0]);
  }
  return tokens;
}

/** The body of a view: its text without the trailing framework notes. */
export function viewBody(view: ProcessedResult): string {
  return stripDisclosureNotes(view.text);
}

/** Invariants every view must hold, whatever the input. */
export function expectHonestView(view: ProcessedResult, input: string, budget: number): void {
  const bytes = utf8ByteLength(view.text);
  expect(view.metadata.outputBytes).toBe(bytes);
  expect(view.metadata.originalBytes).toBe(utf8ByteLength(input));
  if (view.metadata.strategy === 'unchanged') {
    expect(view.text).toBe(input);
    expect(view.metadata.contentLost).toBe(false);
    return;
  }
  expect(bytes).toBeLessThanOrEqual(budget);
  const notes = trailingDisclosureNotes(view.text);
  expect(notes.length).toBe(view.metadata.contentLost ? 1 : 0);
  if (view.metadata.strategy === 'json' || view.metadata.strategy === 'minified') {
    expect(() => JSON.parse(viewBody(view))).not.toThrow();
  }
  if (view.metadata.degenerate) {
    expect(notes[0]?.kind).toBe('severely-reduced');
    expect(view.metadata.keptRatio).toBeLessThan(0.05);
  }
}

/**
 * The lines of a text view's body with its omitted-lines markers checked against `input`: every
 * kept line is the input's line at the number the markers before it imply (markers number the
 * input's lines from 1, as the artifact tools do), and every gap has its marker. Returns the
 * kept lines, markers left out.
 */
export function expectMarkedLines(view: ProcessedResult, input: string): string[] {
  // The view of a text leaves out its byte-order mark.
  const source = input.replace(/^\uFEFF/, '').split('\n');
  if (input.endsWith('\n')) source.pop();
  // A view whose note says so shows its lines without their terminal escape codes; markers
  // still name the input's columns. No escape sequence spans a newline.
  const note = trailingDisclosureNotes(view.text)[0]?.text ?? '';
  // A line that reads as a marker is shown with its `[` turned to `(`.
  const clean = note.includes(ESCAPES_REMOVED_SEGMENT)
    ? (line: string) => stripTerminalEscapes(line)?.text ?? line
    : (line: string) => line;
  const shown = (line: string) => neutralizeMarkerLine(clean(line));
  // Whether the text shown ends with a line ending (a last line of nothing but escape codes, a
  // colour reset after the last newline, is then no line of it).
  const ends = clean(input).endsWith('\n');
  if (ends && !input.endsWith('\n')) source.pop();
  const kept: string[] = [];
  let next = 1;
  let window: { line: number; from: number; to: number; length: number } | undefined;
  const body = viewBody(view).split('\n');
  for (const [at, line] of body.entries()) {
    if (window) {
      // A window of a line too long to keep: those columns of it, as the marker says.
      const whole = source[window.line - 1]!.replace(/\r$/, '');
      expect(whole.length).toBe(window.length);
      expect(line.replace(/\r$/, '')).toBe(shown(whole.slice(window.from - 1, window.to)));
      // The window starts and ends on a character the reader sees, not inside an escape.
      expect(shown(whole.slice(window.from - 1, window.from))).not.toBe('');
      expect(shown(whole.slice(window.to - 1, window.to))).not.toBe('');
      kept.push(line);
      next = window.line + 1;
      window = undefined;
      continue;
    }
    const cut = parseCutLineMarker(line);
    if (cut) {
      expect(cut.line).toBe(next);
      window = cut;
      continue;
    }
    const marker = parseOmittedLinesMarker(line);
    if (marker) {
      expect(marker.first).toBe(next);
      expect(marker.last).toBeGreaterThanOrEqual(marker.first);
      next = marker.last + 1;
      continue;
    }
    // The view's last line is the text's last without its line ending.
    const last = at === body.length - 1 && next === source.length && ends;
    expect(last ? shown(source[next - 1]!).replace(/\r$/, '') : shown(source[next - 1]!)).toBe(
      line,
    );
    kept.push(line);
    next++;
  }
  expect(next - 1).toBe(source.length);
  return kept;
}
