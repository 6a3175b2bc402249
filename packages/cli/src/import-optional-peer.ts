import { CompactionError } from '@compaction/core/internal';

/** What an optional peer of the CLI is for, to say so when it is not installed. */
export interface OptionalPeerUse {
  /** The packages the feature needs, as `npm install` takes them. */
  packages: readonly string[];
  /** The feature, as the message names it: `--otel`, `--provider openai`. */
  feature: string;
}

/** Thrown when an optional peer is missing; its message says what to install and how. */
export class MissingPeerError extends CompactionError {
  /** The packages the feature needs. */
  readonly packages: readonly string[];

  constructor(use: OptionalPeerUse, missing: string, cause: unknown) {
    const flags = use.packages.map((name) => `-p ${name}`).join(' ');
    super({
      message:
        `${use.feature} needs ${missing}, an optional peer of @compaction/cli that is not ` +
        `installed: npm install ${use.packages.join(' ')} beside @compaction/cli, or run ` +
        `npx -y -p @compaction/cli ${flags} compaction ...`,
      code: 'missing_peer',
      cause,
    });
    this.name = 'MissingPeerError';
    this.packages = use.packages;
  }

  static override isInstance(error: unknown): error is MissingPeerError {
    return CompactionError.hasMarker(error, 'MissingPeerError');
  }
}

/** The package a failed import could not find, when that is why it failed. */
function missingPackage(error: unknown, packages: readonly string[]): string | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' || typeof message !== 'string') return undefined;
  // Node: "Cannot find package 'openai' imported from /…/create-openai-client.js"
  const name = /Cannot find (?:package|module) '([^']+)'/.exec(message)?.[1];
  return packages.find((candidate) => name === candidate || name?.startsWith(`${candidate}/`));
}

/**
 * Loads a module that needs an optional peer (the provider SDKs, ioredis, the OpenTelemetry
 * SDK), so a CLI installed without them still runs every command that does not use them. A
 * missing peer becomes a `MissingPeerError` naming the packages to install; any other failure
 * is rethrown as it is.
 */
export async function importOptionalPeer<T>(
  load: () => Promise<T>,
  use: OptionalPeerUse,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing = missingPackage(error, use.packages);
    if (missing === undefined) throw error;
    throw new MissingPeerError(use, missing, error);
  }
}
