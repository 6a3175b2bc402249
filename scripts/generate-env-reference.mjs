// Writes docs/configuration.md from the knob table in @compaction/core (built).
import { writeFileSync } from 'node:fs';
import { renderEnvReference } from '@compaction/core';

writeFileSync(new URL('../docs/configuration.md', import.meta.url), renderEnvReference());
console.log('wrote docs/configuration.md');
