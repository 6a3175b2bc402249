/** Fastest time of each function over a few rounds, all alternating, in milliseconds. */
function fastestMs(...runs: Array<() => unknown>): number[] {
  const best = runs.map(() => Number.POSITIVE_INFINITY);
  for (let round = 0; round < 5; round++) {
    runs.forEach((run, index) => {
      const start = process.hrtime.bigint();
      run();
      best[index] = Math.min(best[index]!, Number(process.hrtime.bigint() - start) / 1e6);
    });
  }
  return best;
}

/**
 * How much more `run` slows from `small` to `large` than the linear `reference` does, measured
 * alternately in this process: 1 is linear, a quadratic pass gives the size ratio. A burst of
 * other work can slow one measurement while a quadratic pass is slow every time, so the least
 * of up to three attempts is returned, stopping at the first below `bound`.
 */
export function relativeGrowth(
  run: (text: string) => unknown,
  reference: (text: string) => unknown,
  small: string,
  large: string,
  bound: number,
): number {
  let relative = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 3 && relative >= bound; attempt++) {
    const [runSmall, refSmall, runLarge, refLarge] = fastestMs(
      () => run(small),
      () => reference(small),
      () => run(large),
      () => reference(large),
    );
    relative = Math.min(relative, runLarge! / runSmall! / (refLarge! / refSmall!));
  }
  return relative;
}
