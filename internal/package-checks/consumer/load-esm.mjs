// Run in a consumer project: imports every entry point named in entries.json and prints the
// names each one exports, as JSON.
import { readFileSync } from 'node:fs';

const entries = JSON.parse(readFileSync(new URL('./entries.json', import.meta.url), 'utf8'));
const exported = {};
for (const entry of entries) exported[entry] = Object.keys(await import(entry)).sort();
process.stdout.write(JSON.stringify(exported));
