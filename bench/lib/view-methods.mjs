// The methods the informativeness benchmarks compare, each making a view of a text for a
// budget and an optional question: the trimmer (information-first), its breadth-first option,
// a head cut, head+tail and a keyword line filter.
import { createStructuralTrimmer } from '@compaction/trimmer';
import { headCut, headTail, lineFilter } from './text-baselines.mjs';

/** Method name → `(text, budget, question?) => view text`. */
export function viewMethods() {
  const informationFirst = createStructuralTrimmer();
  const breadthFirst = createStructuralTrimmer({ selection: 'breadth-first' });
  return {
    trimmer: (text, budget, question) =>
      informationFirst.trim(text, budget, question ? { userQuery: question } : undefined).text,
    'breadth-first': (text, budget, question) =>
      breadthFirst.trim(text, budget, question ? { userQuery: question } : undefined).text,
    'head cut': headCut,
    'head+tail': headTail,
    'line filter': (text, budget, question) => lineFilter(text, budget, question ?? ''),
  };
}
