import type { ArtifactFileSystem } from '@compaction/artifacts';
import type { CompactionTelemetry } from '@compaction/core';

/** What a command may touch: streams, environment and working directory, all injectable. */
export interface CliIo {
  /** Standard output: exactly the command's result. */
  stdout: { write(chunk: string | Uint8Array): unknown };
  /** Standard error: warnings, progress and error messages. */
  stderr: { write(chunk: string | Uint8Array): unknown; isTTY?: boolean };
  /** Standard input, read when the input argument is `-` or absent and stdin is not a terminal. */
  stdin: AsyncIterable<string | Uint8Array> & { isTTY?: boolean };
  /** The environment. */
  env: Readonly<Record<string, string | undefined>>;
  /** Directory relative paths resolve against. */
  cwd: string;
  /** Telemetry for the command's compactions (set by the global `--otel` flag). Default none. */
  telemetry?: CompactionTelemetry;
  /**
   * File operations artifact stores and their indexes write with (tests inject a full disk or
   * a read-only index). Default: the real filesystem.
   */
  fileSystem?: ArtifactFileSystem;
}
