import { CompactionError } from '@compaction/core/internal';
import type { CliIo } from './cli-io.js';
import { cliVersion } from './cli-version.js';
import { COMMANDS } from './commands/index.js';
import { importOptionalPeer } from './import-optional-peer.js';
import type { OtelSession } from './otel-session.js';
import { UsageError } from './usage-error.js';

/** The optional peers `--otel` loads. */
const OTEL_PEERS = [
  '@opentelemetry/api',
  '@opentelemetry/sdk-node',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/sdk-metrics',
];

/** Exit codes: 0 success, 1 failure (one-line message), 2 bad usage. */
export const EXIT_CODES = { ok: 0, failure: 1, usage: 2 } as const;

/** The command list loads every command for its summary: help is not the hot path. */
async function mainHelp(): Promise<string> {
  const commands = await Promise.all(COMMANDS.map((entry) => entry.load()));
  const width = Math.max(...commands.map((command) => command.name.length));
  const list = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return `Usage: compaction <command> [options]

Shrinks large tool and agent results to a byte budget, honestly.

Commands:
${list.join('\n')}

Global options:
  --otel      emit OpenTelemetry spans and metrics: to OTEL_EXPORTER_OTLP_ENDPOINT when set,
              else as JSON lines on standard error (standard output is unchanged); needs the
              optional peers @opentelemetry/api, @opentelemetry/sdk-node,
              @opentelemetry/sdk-trace-base and @opentelemetry/sdk-metrics
  --version   print the version of @compaction/cli

Run 'compaction <command> --help' for a command's options and examples.
Exit codes: 0 ok, 1 failure, 2 bad usage.
`;
}

function oneLine(message: string): string {
  return message.split('\n')[0]!.trim();
}

/** Runs `compaction` with `argv` (without node and the script path) and returns the exit code. */
export async function runCli(argv: readonly string[], baseIo: CliIo): Promise<number> {
  // `--otel` is global: it may stand anywhere and never reaches the command.
  const otel = argv.includes('--otel');
  const [name, ...rest] = argv.filter((arg) => arg !== '--otel');
  let io = baseIo;
  if (name === '--version' || name === '-v' || name === '-V') {
    io.stdout.write(`${cliVersion()}\n`);
    return EXIT_CODES.ok;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const target = name === 'help' ? COMMANDS.find((entry) => entry.name === rest[0]) : undefined;
    io.stdout.write(target ? `${(await target.load()).help}\n` : await mainHelp());
    return EXIT_CODES.ok;
  }
  const entry = COMMANDS.find((candidate) => candidate.name === name);
  if (!entry) {
    io.stderr.write(`compaction: unknown command '${name}'\n${await mainHelp()}`);
    return EXIT_CODES.usage;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(`${command.help}\n`);
    return EXIT_CODES.ok;
  }
  let session: OtelSession | undefined;
  try {
    if (otel) {
      const { startOtelSession } = await importOptionalPeer(() => import('./otel-session.js'), {
        feature: '--otel',
        packages: OTEL_PEERS,
      });
      session = startOtelSession(io);
      io = { ...io, telemetry: session.telemetry };
    }
    return await command.run(rest, io);
  } catch (error) {
    if (UsageError.isInstance(error)) {
      io.stderr.write(`compaction ${command.name}: ${oneLine(error.message)}\n`);
      io.stderr.write(`Run 'compaction ${command.name} --help' for usage.\n`);
      return EXIT_CODES.usage;
    }
    const message =
      CompactionError.isInstance(error) || error instanceof Error ? error.message : String(error);
    io.stderr.write(`compaction ${command.name}: ${oneLine(message)}\n`);
    return EXIT_CODES.failure;
  } finally {
    await session?.shutdown();
  }
}
