// `pnpm pack:check`: packs every published package and prints what keeps any from being
// published as it is. Exit code 1 when there is anything. `pnpm test` runs the same check.
import { packAndCheck } from './index.js';

const results = await packAndCheck();
let failed = 0;
for (const { name, problems } of results) {
  if (problems.length === 0) {
    console.log(`ok    ${name}`);
    continue;
  }
  failed++;
  console.log(`FAIL  ${name}`);
  for (const problem of problems) console.log(`      ${problem}`);
}
process.exitCode = failed ? 1 : 0;
