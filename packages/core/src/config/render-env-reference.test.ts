import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_KNOBS } from './config-knobs.js';
import { renderEnvReference } from './render-env-reference.js';

const docPath = fileURLToPath(new URL('../../../../docs/configuration.md', import.meta.url));

describe('docs/configuration.md', () => {
  it('is exactly the reference rendered from the knob table (run `pnpm docs:env` after a change)', () => {
    expect(readFileSync(docPath, 'utf8')).toBe(renderEnvReference());
  });

  it('lists every knob', () => {
    const text = renderEnvReference();
    for (const knob of CONFIG_KNOBS) expect(text).toContain(`\`${knob.path}\``);
  });
});
