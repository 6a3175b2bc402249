import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const source = dirname(fileURLToPath(import.meta.url));

/**
 * Tools, vendors and formats a rule could be named after. Knowing them is the readers' and the
 * vocabulary's business; the engine and the JSON selection decide by what values look like.
 */
const TOOLS =
  /\b(kubectl|kubernetes|k8s|klog|kubelet|sshd|nginx|apache|docker|containerd|github|gitlab|terraform|buildkite|jenkins|alertmanager|prometheus|grafana|jaeger|zipkin|otlp|opentelemetry|elasticsearch|opensearch|datadog|sentry|aws|gcp|azure|journald|systemd|syslog|pytest|jest|mocha|junit|cargo|maven|gradle|npm|pnpm|zeek|cloudfront|iis|coralogix|laravel|kafka)\b/i;

/** The lines of `text` that are code: comments (`//`, `/* … *\/`, JSDoc) left out. */
function codeLines(text: string): Array<{ line: number; code: string }> {
  const lines: Array<{ line: number; code: string }> = [];
  let inComment = false;
  text.split('\n').forEach((raw, i) => {
    let code = raw;
    if (inComment) {
      const end = code.indexOf('*/');
      if (end < 0) return;
      code = code.slice(end + 2);
      inComment = false;
    }
    const open = code.indexOf('/*');
    if (open >= 0) {
      const end = code.indexOf('*/', open + 2);
      if (end < 0) inComment = true;
      code = code.slice(0, open) + (end < 0 ? '' : code.slice(end + 2));
    }
    const comment = code.search(/(?<![:'"`\\])\/\//);
    if (comment >= 0) code = code.slice(0, comment);
    if (code.trim() !== '') lines.push({ line: i + 1, code });
  });
  return lines;
}

describe('knowledge at the edge', () => {
  it('names no tool, vendor or format in the engine, the JSON selection or the entry points', () => {
    const files = [
      ...readdirSync(join(source, 'engine')).map((name) => join('engine', name)),
      ...readdirSync(join(source, 'json')).map((name) => join('json', name)),
      ...readdirSync(source).filter((name) => name.endsWith('.ts')),
    ].filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(40);
    const named: string[] = [];
    for (const file of files) {
      for (const { line, code } of codeLines(readFileSync(join(source, file), 'utf8'))) {
        const tool = TOOLS.exec(code);
        if (tool) named.push(`${file}:${line}: ${tool[0]}`);
      }
    }
    expect(named).toEqual([]);
  });

  it('reads a rule named after a tool in code, not in a comment', () => {
    const lines = codeLines(
      [
        '// kubectl prints this',
        '/** a sshd line',
        ' * nginx too */',
        "const url = 'https://x'; // docker",
        "if (line.includes('klog')) return;",
      ].join('\n'),
    );
    expect(lines.map(({ code }) => TOOLS.exec(code)?.[0])).toEqual([undefined, 'klog']);
  });
});
