/**
 * How to run pnpm in the hints the demo prints, in the form the README's quick start uses:
 * `pnpm` when it is installed, `npx -y pnpm@<version>` when npx fetched pnpm to run the demo
 * (pnpm then runs from npx's cache, `~/.npm/_npx/…`, and a bare `pnpm` would not be found).
 */
export function pnpmCommand(env: Readonly<Record<string, string | undefined>>): string {
  const version = /^pnpm\/(\S+)/.exec(env.npm_config_user_agent ?? '')?.[1];
  const viaNpx = /[\\/]_npx[\\/]/.test(env.npm_execpath ?? '');
  return viaNpx && version ? `npx -y pnpm@${version}` : 'pnpm';
}
