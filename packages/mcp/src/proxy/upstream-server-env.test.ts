import { describe, expect, it } from 'vitest';
import { upstreamServerEnv } from './upstream-server-env.js';

describe('upstreamServerEnv', () => {
  it('drops what the enclosing npx run was asked to run, keeps npm settings and the rest', () => {
    // What `npx -y -p @compaction/cli compaction …` sets for compaction (npm 11).
    const env = {
      PATH: '/usr/bin',
      HOME: '/root',
      npm_command: 'exec',
      npm_config_package: '@compaction/cli',
      npm_config_call: 'compaction mcp-proxy',
      npm_config_yes: 'true',
      npm_config_cache: '/root/.npm',
      npm_config_registry: 'https://registry.example/',
      npm_lifecycle_event: 'npx',
      npm_lifecycle_script: 'compaction',
      npm_package_json: '/srv/package.json',
      npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
      UNSET: undefined,
    };
    expect(upstreamServerEnv(env)).toEqual({
      PATH: '/usr/bin',
      HOME: '/root',
      npm_config_yes: 'true',
      npm_config_cache: '/root/.npm',
      npm_config_registry: 'https://registry.example/',
      npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
    });
  });
});
