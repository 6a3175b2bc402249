import type { CliIo } from './cli-io.js';

/** A one-line progress display on standard error. */
export interface ProgressLine {
  /** Redraws the line (at most every `intervalMs`, unless `force`). */
  update(text: string, force?: boolean): void;
  /** Draws the last text and ends the line. */
  done(text?: string): void;
}

const silent: ProgressLine = { update() {}, done() {} };

/**
 * Progress for long work, drawn on standard error only when it is a terminal: a pipe or a log
 * file never receives carriage-return redraws. Redraws are throttled.
 */
export function progressLine(
  io: CliIo,
  intervalMs = 200,
  now: () => number = Date.now,
): ProgressLine {
  if (!io.stderr.isTTY) return silent;
  let last = -Infinity;
  let shown = '';
  let width = 0;
  const draw = (text: string) => {
    io.stderr.write(`\r${text.padEnd(width)}`);
    width = text.length;
    shown = text;
  };
  return {
    update(text, force = false) {
      const time = now();
      if (!force && time - last < intervalMs) return;
      last = time;
      draw(text);
    },
    done(text) {
      if (text !== undefined) draw(text);
      if (shown !== '') io.stderr.write('\n');
    },
  };
}

/** Counts the bytes of a stream as it passes, reporting them on a progress line. */
export async function* countingStream(
  source: AsyncIterable<string | Uint8Array>,
  progress: ProgressLine,
  label: string,
): AsyncIterable<string | Uint8Array> {
  let bytes = 0;
  const mb = () => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  for await (const chunk of source) {
    bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
    progress.update(`${label} ${mb()}`);
    yield chunk;
  }
  progress.done(`${label} ${mb()}, done`);
}
