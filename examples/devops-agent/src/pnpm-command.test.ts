import { describe, expect, it } from 'vitest';
import { pnpmCommand } from './pnpm-command.js';

describe('pnpmCommand', () => {
  it('is pnpm when pnpm is installed', () => {
    expect(pnpmCommand({})).toBe('pnpm');
    expect(
      pnpmCommand({
        npm_execpath: '/usr/lib/node_modules/pnpm/pnpm',
        npm_config_user_agent: 'pnpm/12.4.2 npm/? node/v20.19.0 linux x64',
      }),
    ).toBe('pnpm');
  });

  it('is the README quick-start form when npx fetched pnpm to run the demo', () => {
    expect(
      pnpmCommand({
        npm_execpath: '/root/.npm/_npx/3c7a1b/node_modules/pnpm/bin/pnpm.cjs',
        npm_config_user_agent: 'pnpm/12.4.2 npm/? node/v20.19.0 linux x64',
      }),
    ).toBe('npx -y pnpm@12.4.2');
  });
});
