// Trims one fixture N times (or parses it N times with `--parse`), for counting instructions,
// which move far less than time with the machine's load:
//
//   valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
//     node --predictable --hash-seed=1 --random-seed=1 bench/trim-loop.mjs 60 [fixture] [--parse]
//
// `--predictable` keeps V8 on one thread (no concurrent compilation or collection) and the fixed
// seeds keep its hashing and heap layout from run to run; even so a count can move by about 0.5%
// (seen on Node 24; 0.01% on Node 20), so a smaller A/B difference is noise. Run it for two
// values of N (say 60 and 180): the difference divided by the difference of N is one
// steady-state trim, start-up and warm-up cancelled out.
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
