import type { ArtifactKind } from '../storage/artifact-record.js';

const DIFF =
  /^(?:diff --git |diff -[a-z]*u|Index: |--- \S[^\n]*\n\+\+\+ \S|@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@)/m;
const LOG_LINE =
  /^(?:\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\[?\d\d:\d\d:\d\d|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d|\[?(?:TRACE|DEBUG|INFO|WARN(?:ING)?|ERROR|FATAL)\b|(?:npm|pnpm|yarn) (?:ERR|WARN)|\$ \S)/;

/**
 * The kind of a stored result whose tool name says nothing (the CLI, the processor path):
 * a unified diff is a `diff`, text most of whose first lines start like log lines (a
 * timestamp, a level, a `$ command`) is a `terminal_log`, anything else `fallback`. Reads at
 * most the first 8 KiB of `head`.
 */
export function inferArtifactKind(
  head: string,
  fallback: ArtifactKind = 'tool_output',
): ArtifactKind {
  const start = head.slice(0, 8192);
  if (DIFF.test(start)) return 'diff';
  const lines = start.split('\n', 20).filter((line) => line.trim() !== '');
  if (lines.length >= 3) {
    const logLike = lines.filter((line) => LOG_LINE.test(line)).length;
    if (logLike * 2 > lines.length) return 'terminal_log';
  }
  return fallback;
}
