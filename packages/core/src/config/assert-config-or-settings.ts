import { InvalidArgumentError } from '../errors.js';

/**
 * Refuses `settings` that give a resolved `config` together with any of the plain settings it
 * replaces (`names`): one of the two would be silently unused. Returns whether a `config` was
 * given.
 */
export function assertConfigOrSettings<S extends { config?: unknown }>(
  settings: S,
  names: readonly (keyof S & string)[],
): boolean {
  if (settings.config === undefined) return false;
  const both = names.filter((name) => settings[name] !== undefined);
  if (both.length > 0) {
    throw new InvalidArgumentError({
      argument: both[0]!,
      message: `give either config or ${both.join(', ')}, not both`,
    });
  }
  return true;
}
