import type { AIClient } from '@compaction/core';
import { loadConfig } from '@compaction/core';
import { createDistiller, type DistillProgress } from '@compaction/distiller';
import type { CliCommand } from '../cli-command.js';
import type { CliIo } from '../cli-io.js';
import { importOptionalPeer } from '../import-optional-peer.js';
import { parseCommandArgs, parseIntegerFlag } from '../parse-command-args.js';
import { readInput } from '../read-input.js';
import { UsageError } from '../usage-error.js';

type Provider = 'openai' | 'anthropic';

export const KEY_VARIABLES: Readonly<Record<Provider, string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
};

/** The provider a flag or the environment asks for, if any. */
export function chooseProvider(flag: string | undefined, env: CliIo['env']): Provider | undefined {
  if (flag !== undefined) {
    if (flag !== 'openai' && flag !== 'anthropic') {
      throw new UsageError(`--provider must be openai or anthropic, got ${JSON.stringify(flag)}`);
    }
    return flag;
  }
  if (env.OPENAI_API_KEY?.trim()) return 'openai';
  if (env.ANTHROPIC_API_KEY?.trim()) return 'anthropic';
  // A local OpenAI-compatible server (Ollama, vLLM, llama.cpp) needs no key.
  if (env.OPENAI_BASE_URL?.trim()) return 'openai';
  return undefined;
}

/** True when `provider` can be called: a key, or for OpenAI a base URL of a keyless server. */
export function hasCredentials(provider: Provider, env: CliIo['env']): boolean {
  if (env[KEY_VARIABLES[provider]]?.trim()) return true;
  return provider === 'openai' && Boolean(env.OPENAI_BASE_URL?.trim());
}

// The provider SDKs are optional peers: load only the one asked for.
export async function createClient(provider: Provider, env: CliIo['env']): Promise<AIClient> {
  if (provider === 'openai') {
    const { createOpenAIClient } = await importOptionalPeer(
      () => import('@compaction/distiller/openai'),
      { feature: 'the openai provider', packages: ['openai'] },
    );
    return createOpenAIClient({ env });
  }
  const { createAnthropicClient } = await importOptionalPeer(
    () => import('@compaction/distiller/anthropic'),
    { feature: 'the anthropic provider', packages: ['@anthropic-ai/sdk'] },
  );
  return createAnthropicClient({ env });
}

function progressWriter(io: CliIo): ((progress: DistillProgress) => void) | undefined {
  if (!io.stderr.isTTY) return undefined;
  return ({ total, completed, failed }) => {
    const failures = failed > 0 ? `, ${failed} failed` : '';
    const done = completed + failed === total;
    io.stderr.write(
      `\rmap-reduce: ${completed}/${total} segments distilled${failures}${done ? '\n' : ''}`,
    );
  };
}

/** `compaction distill`: fast-model distillation of one result, with the structural floor as fallback. */
export const distillCommand: CliCommand = {
  name: 'distill',
  summary: 'distill a large result with a fast model for a query (structural floor without a key)',
  help: `Usage: compaction distill --query TEXT [--task TEXT] [--budget BYTES] [--provider openai|anthropic] [--json] [FILE|-]

Distills FILE (or standard input) for the question in --query: a result over the distill
threshold that does not fit the budget whole is pre-filtered structurally and summarised by the
provider's fast model, or split into segments that are distilled concurrently and reduced when
it is very large. A result that fits the budget (minified, for JSON) is printed whole; smaller
results, and every model failure, get the deterministic structural trim. Standard output is
exactly the distilled text (disclosure notes included); progress of map-reduce segments goes
to standard error when it is a terminal.

The provider comes from --provider, else the first of OPENAI_API_KEY and ANTHROPIC_API_KEY that
is set, else OpenAI when OPENAI_BASE_URL is set. OPENAI_BASE_URL / ANTHROPIC_BASE_URL point at any
compatible server (Ollama, vLLM, llama.cpp, a proxy); a local OpenAI-compatible server needs no
key. Without a key or a base URL the command says so on standard error and prints the
structural floor. Every COMPACTION_RESULT_DISTILL_* variable applies (see compaction config);
with COMPACTION_REDIS_URL set, distillations are cached in Redis for
COMPACTION_RESULT_DISTILL_CACHE_TTL, so a repeated run is a cache hit.

Options:
  --query TEXT      the user's request the distillation must serve (required)
  --task TEXT       what the step that produced the result was asked to do
  --budget BYTES    output budget in UTF-8 bytes (default: COMPACTION_RESULT_TRIM_MAX_TOTAL_BYTES)
  --provider NAME   openai or anthropic
  --json            print {"text": ..., "metadata": ...} instead of the text
  -h, --help        show this help

Examples:
  curl -s https://api.example.com/logs | compaction distill --query "which requests failed?" -
  OPENAI_BASE_URL=http://localhost:11434/v1 COMPACTION_RESULT_DISTILL_MODEL=llama3.2 \\
    compaction distill --query "errors?" logs.json`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, {
      query: { type: 'string' },
      task: { type: 'string' },
      budget: { type: 'string' },
      provider: { type: 'string' },
      json: { type: 'boolean' },
    });
    if (positionals.length > 1) throw new UsageError(`unexpected argument: ${positionals[1]}`);
    const query = values.query as string | undefined;
    if (!query?.trim()) throw new UsageError('--query TEXT is required');
    const budgetFlag = parseIntegerFlag('budget', values.budget as string | undefined, 1);
    const provider = chooseProvider(values.provider as string | undefined, io.env);

    const { config, warnings } = loadConfig({ env: io.env });
    // The distiller resolves the same settings and sees the same problems: say each once.
    const reported = new Set<string>();
    const warn = (message: string) => {
      if (reported.has(message)) return;
      reported.add(message);
      io.stderr.write(`warning: ${message}\n`);
    };
    for (const warning of warnings) warn(warning.message);
    const budget = budgetFlag ?? config.trim.maxTotalBytes;
    const input = await readInput(positionals[0], io);

    let client: AIClient | undefined;
    if (!provider) {
      io.stderr.write(
        'no model API key: set OPENAI_API_KEY or ANTHROPIC_API_KEY (or OPENAI_BASE_URL for a local server) to distill; printing the structural floor\n',
      );
    } else if (!hasCredentials(provider, io.env)) {
      io.stderr.write(`no ${KEY_VARIABLES[provider]} set: printing the structural floor\n`);
    } else {
      client = await createClient(provider, io.env);
    }

    const onProgress = progressWriter(io);
    // A shared cache turns repeated runs into hits; Redis being down only costs a recomputation.
    const redisUrl = config.redisUrl;
    const redis = redisUrl
      ? await importOptionalPeer(
          async () =>
            (await import('@compaction/distiller/redis')).connectRedisDistillCache({
              url: redisUrl,
            }),
          { feature: 'COMPACTION_REDIS_URL (the shared distill cache)', packages: ['ioredis'] },
        )
      : undefined;
    try {
      const distiller = createDistiller({
        config,
        // Always recorded: failures are reported on stderr, every call only with LLM-debug on.
        llmDebug: true,
        ...(client ? { client } : {}),
        onWarning: warn,
        ...(onProgress ? { onProgress } : {}),
        ...(redis ? { cache: redis.cache } : {}),
        ...(io.telemetry ? { telemetry: io.telemetry } : {}),
      });
      const processed = await distiller.process(input, budget, {
        userQuery: query,
        ...(values.task ? { stepTask: values.task as string } : {}),
      });
      for (const record of distiller.llmDebug?.records ?? []) {
        if (!config.llmDebug && !record.error) continue;
        io.stderr.write(
          `${config.llmDebug ? 'llm-debug' : 'warning'}: ${record.description}: ${record.inputBytes} bytes in, ${record.error ? `failed: ${record.error}` : `${Buffer.byteLength(record.output ?? '')} bytes out`}, ${Math.round(record.durationMs)} ms\n`,
        );
      }
      if (values.json) {
        io.stdout.write(
          `${JSON.stringify({ text: processed.text, metadata: processed.metadata })}\n`,
        );
      } else {
        io.stdout.write(processed.text.endsWith('\n') ? processed.text : `${processed.text}\n`);
      }
      return 0;
    } finally {
      redis?.close();
    }
  },
};
