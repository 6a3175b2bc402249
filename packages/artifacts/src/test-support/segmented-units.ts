import { graphemeSegmenter } from '../text/grapheme-segmenter.js';

/** Counts the units handed to the shared segmenter while `run` runs (work, never time). */
export function segmentedUnits(run: () => void): number {
  const segmenter = graphemeSegmenter();
  const segment = segmenter.segment;
  let units = 0;
  segmenter.segment = (input: string) => {
    units += input.length;
    return segment.call(segmenter, input);
  };
  try {
    run();
  } finally {
    segmenter.segment = segment;
  }
  return units;
}
