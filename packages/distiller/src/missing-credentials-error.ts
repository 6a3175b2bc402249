import { CompactionError } from '@compaction/core';

/** A provider client was asked for without an API key. */
export class MissingCredentialsError extends CompactionError {
  /** The provider, such as `openai`. */
  readonly provider: string;
  /** The environment variable that would hold the key. */
  readonly envVar: string;

  constructor(input: { provider: string; envVar: string }) {
    super({
      message: `No API key for ${input.provider}: pass apiKey or set ${input.envVar}`,
      code: 'missing_api_key',
    });
    this.name = 'MissingCredentialsError';
    this.provider = input.provider;
    this.envVar = input.envVar;
  }

  static override isInstance(error: unknown): error is MissingCredentialsError {
    return CompactionError.hasMarker(error, 'MissingCredentialsError');
  }
}
