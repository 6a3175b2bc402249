/** Frees something held between calls once it has gone unused for a while (`createIdleRelease`). */
export interface IdleRelease {
  /** Notes a use now; the release waits until `idleMs` after the last one. */
  touch(): void;
}

/**
 * Calls `release` once nothing has called `touch` for `idleMs` and `busy` says it is not in use
 * (checked again a millisecond later while it is). One timer at most, `unref()`ed: it never keeps
 * the process alive (Node, Deno, Bun; browsers have no `unref`).
 */
export function createIdleRelease(
  idleMs: number,
  release: () => void,
  busy: () => boolean = () => false,
): IdleRelease {
  let usedAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (ms: number) => {
    timer = setTimeout(fire, ms);
    (timer as { unref?: () => void }).unref?.();
  };
  function fire(): void {
    timer = undefined;
    const left = usedAt + idleMs - Date.now();
    if (busy() || left > 0) arm(Math.max(1, left));
    else release();
  }
  return {
    touch() {
      usedAt = Date.now();
      if (timer === undefined) arm(idleMs);
    },
  };
}
