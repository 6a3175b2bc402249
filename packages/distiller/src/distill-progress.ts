/** Progress of a map-reduce run, for a terminal progress line. */
export interface DistillProgress {
  /** Segments in all. */
  total: number;
  /** Segments whose extract finished. */
  completed: number;
  /** Segments whose call failed. */
  failed: number;
}
