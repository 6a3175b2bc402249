/**
 * Variables npm and npx set for the command they run, describing that run: what package it came
 * from (`npm_config_package`, from `npx -p`), the command line (`npm_config_call`, from
 * `npx -c`), the script and package being run. A server started inside that command must not
 * inherit them: an inner `npx -y <server>` reads `npm_config_package` as its own `-p` and runs
 * `<server>` from the outer package, which fails. npm's settings (`npm_config_cache`,
 * `npm_config_registry`, …) stay, since they hold for the inner npx too.
 */
const OUTER_NPM_RUN =
  /^(npm_config_package|npm_config_call|npm_command|npm_lifecycle_.*|npm_package_.*)$/i;

/**
 * The environment for an MCP server a proxy starts: `env` without the variables of an enclosing
 * `npx` or `npm run` (see `OUTER_NPM_RUN`), and without unset entries.
 */
export function upstreamServerEnv(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !OUTER_NPM_RUN.test(name)) clean[name] = value;
  }
  return clean;
}
