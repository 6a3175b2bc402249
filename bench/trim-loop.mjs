// Trims one fixture N times (or parses it N times with `--parse`), for counting instructions,
// which unlike time do not move with the machine's load:
//
//   valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
//     node --predictable bench/trim-loop.mjs 30 [fixture] [--parse]
//
// `--predictable` keeps V8 on one thread (no concurrent compilation or collection), so the count
// repeats to within 0.01%. Run it for two values of N (say 30 and 90): the difference divided by
// the difference of N is one steady-state trim, start-up and warm-up cancelled out.
import { readFixture } from '@compaction/fixtures';
import { createStructuralTrimmer } from '@compaction/trimmer';

const args = process.argv.slice(2);
const parse = args.includes('--parse');
const [count = '30', fixture = 'bigint/twitter-search-results.json'] = args.filter(
  (arg) => arg !== '--parse',
);
const text = readFixture(fixture);
const trimmer = createStructuralTrimmer();
let kept = 0;
for (let i = 0; i < Number(count); i++) {
  kept += parse ? (JSON.parse(text) ? 1 : 0) : trimmer.trim(text, 65_536).text.length;
}
if (kept < 0) console.log(kept);
