/**
 * Splits bytes that arrive in chunks into the lines that `\n` ends (each without it), holding
 * only the unfinished last line. With `maxLineBytes`, a line longer than that is skipped whole:
 * its bytes are let go as they arrive, never held, and splitting goes on after its newline.
 */
export interface LineSplitter {
  /**
   * Calls `onLine` with each line `chunk` completes, in order. A line is a view that is valid
   * only during the call (it may share memory with `chunk`). The chunk's bytes after its last
   * newline are copied and held, up to `maxLineBytes`. `onSkip` is called once for each line
   * skipped, in its place in that order, as soon as its length is known to be over the limit
   * (before its newline when it has none yet). When a callback throws, the splitter is left
   * mid-chunk and must not be used again.
   */
  push(chunk: Buffer, onLine: (line: Buffer) => void, onSkip?: () => void): void;
  /** Bytes of the unfinished line held (0 while one is being skipped). */
  readonly held: number;
  /** True while the unfinished line is longer than `maxLineBytes` and being skipped. */
  readonly skipping: boolean;
}

/** A `LineSplitter`; `skipping` starts it inside a line already known to be too long. */
export function createLineSplitter(
  options: { maxLineBytes?: number; skipping?: boolean } = {},
): LineSplitter {
  const maxLineBytes = options.maxLineBytes ?? Number.POSITIVE_INFINITY;
  // The unfinished line's bytes, in order, and their total.
  let pieces: Buffer[] = [];
  let held = 0;
  let skipping = options.skipping ?? false;
  return {
    get held() {
      return held;
    },
    get skipping() {
      return skipping;
    },
    push(chunk, onLine, onSkip) {
      let start = 0;
      for (let newline = chunk.indexOf(0x0a); newline >= 0; newline = chunk.indexOf(0x0a, start)) {
        const length = held + newline - start;
        if (skipping) skipping = false;
        else if (length <= maxLineBytes) {
          const end = chunk.subarray(start, newline);
          onLine(held === 0 ? end : Buffer.concat([...pieces, end], length));
        } else onSkip?.();
        pieces = [];
        held = 0;
        start = newline + 1;
      }
      const rest = chunk.length - start;
      if (skipping || rest === 0) return;
      if (held + rest > maxLineBytes) {
        skipping = true;
        pieces = [];
        held = 0;
        onSkip?.();
        return;
      }
      pieces.push(Buffer.from(chunk.subarray(start)));
      held += rest;
    },
  };
}
