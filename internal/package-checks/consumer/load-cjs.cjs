// Run in a consumer project: requires every entry point named in entries.json (require(esm),
// Node.js 20.19 or later) and prints the names each one exports, as JSON.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const entries = JSON.parse(readFileSync(join(__dirname, 'entries.json'), 'utf8'));
const exported = {};
for (const entry of entries) {
  exported[entry] = Object.keys(require(entry))
    .filter((name) => name !== '__esModule' && name !== 'module.exports')
    .sort();
}
process.stdout.write(JSON.stringify(exported));
