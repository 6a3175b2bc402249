import { countGraphemes } from '../text/count-graphemes.js';
import { headGraphemeRun, headGraphemes, tailGraphemeRun } from '../text/grapheme-window.js';
import { assembleExcerpt, excerpt, minimumExcerptBudget } from './excerpt.js';
import { formatCount } from './excerpt-marker.js';
import { inferArtifactKind } from './infer-artifact-kind.js';
import type {
  Projection,
  ProjectionContext,
  ProjectionPolicy,
  ToolOutput,
} from './projection-policy.js';
import { matchToolNames } from './tool-name-matcher.js';

const LINE_CHARS = 240;

function clip(line: string, chars = LINE_CHARS): string {
  const head = headGraphemes(line, chars);
  return head.whole ? line : `${head.text}…`;
}

function stringArg(output: ToolOutput, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = output.args?.[name];
    if (typeof value === 'string' && value.trim())
      return clip(value.trim().replace(/\s+/g, ' '), 160);
    if (typeof value === 'number') return String(value);
  }
  return undefined;
}

/** Lines first, then an excerpt in the room they leave; the lines go when there is no room. */
function withExcerpt(
  lines: string[],
  output: ToolOutput,
  context: ProjectionContext,
  headShare?: number,
): string {
  const prefix = lines.length ? `${lines.join('\n')}\n` : '';
  const room = context.budgetChars - countGraphemes(prefix);
  if (room >= minimumExcerptBudget(context.source)) {
    return (
      prefix +
      excerpt(output.output, room, context.source, headShare === undefined ? {} : { headShare })
        .text
    );
  }
  return excerpt(output.output, context.budgetChars, context.source).text;
}

/** The last `count` lines of `text`, found by walking back from the end only. */
function lastLines(text: string, count: number): string {
  let end = text.endsWith('\n') ? text.length - 1 : text.length;
  let start = end;
  for (let i = 0; i < count && start > 0; i++) {
    start = text.lastIndexOf('\n', start - 1);
    if (start < 0) return text;
    end = start;
  }
  return text.slice(start + 1);
}

function tailOnly(
  lines: string[],
  output: ToolOutput,
  context: ProjectionContext,
  tailLines: number,
): string {
  const prefix = lines.length ? `${lines.join('\n')}\n` : '';
  const room = context.budgetChars - countGraphemes(prefix);
  if (room < minimumExcerptBudget(context.source)) return withExcerpt([], output, context, 0);
  const tail = lastLines(output.output, tailLines);
  const built = assembleExcerpt(
    room,
    context.source,
    {},
    () => headGraphemeRun('', 0),
    (n) => tailGraphemeRun(tail, n),
  );
  return prefix + built.text.replace(/^\n/, '');
}

const ERROR_LINE = /\b(error|fail(ed|ure)?|exception|panic|traceback|fatal|denied|not found)\b/i;

/** Up to `max` lines that look like errors, scanning at most the first and last 2 MB. */
function errorLines(text: string, max: number): string[] {
  const windows =
    text.length > 4_000_000 ? [text.slice(0, 2_000_000), text.slice(-2_000_000)] : [text];
  const found: string[] = [];
  for (const window of windows) {
    for (const line of window.split('\n')) {
      if (ERROR_LINE.test(line)) found.push(clip(line.trim(), 200));
      if (found.length >= max) return found;
    }
  }
  return found;
}

function lineCount(text: string): number {
  let count = text.length && !text.endsWith('\n') ? 1 : 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

const size = (context: ProjectionContext) =>
  `${formatCount(context.source.totalChars)} chars, ${formatCount(context.source.totalBytes)} bytes`;

/** `read_file` and kin: the path, the line range and a head/tail excerpt. */
export const fileReadPolicy: ProjectionPolicy = {
  name: 'file-read',
  kind: 'file_read',
  matches: matchToolNames({
    names: [
      'read',
      'read_file',
      'readfile',
      'file_read',
      'fs_read',
      'view_file',
      'open_file',
      'cat',
      'get_file_contents',
      'read_text_file',
    ],
    patterns: [/^read_[a-z0-9_]*file$/],
  }),
  project(output, context): Projection {
    const path = stringArg(output, 'path', 'file', 'file_path', 'filename') ?? '(unknown path)';
    const from = stringArg(output, 'start_line', 'offset', 'from');
    const to = stringArg(output, 'end_line', 'to');
    const range = from || to ? ` lines ${from ?? 1}-${to ?? 'end'}` : '';
    const lines = lineCount(output.output);
    const summary = `Read ${path}${range} (${formatCount(lines)} lines, ${size(context)}).`;
    return {
      kind: 'file_read',
      title: `${output.toolName} ${path}`,
      summary,
      body: withExcerpt([], output, context),
    };
  },
};

/** Search tools: compact matches stay inline (first matches, one clipped line each). */
export const searchPolicy: ProjectionPolicy = {
  name: 'search',
  kind: 'tool_output',
  matches: matchToolNames({
    names: [
      'search',
      'grep',
      'rg',
      'ripgrep',
      'find',
      'glob',
      'search_files',
      'grep_search',
      'file_search',
      'find_files',
      'codebase_search',
      'search_code',
    ],
    patterns: [/^(?:search|grep|find)_[a-z0-9_]+$/, /^[a-z0-9_]+_search$/],
  }),
  project(output, context): Projection {
    const pattern = stringArg(output, 'pattern', 'query', 'regex', 'q') ?? '';
    const total = lineCount(output.output);
    const shown: string[] = [];
    let used = 0;
    const budget = context.budgetChars - minimumExcerptBudget(context.source) - 120;
    for (const line of output.output.slice(0, 400_000).split('\n')) {
      if (!line.trim()) continue;
      const compact = clip(line.trim(), 160);
      const cost = countGraphemes(compact) + 1;
      if (used + cost > budget) break;
      shown.push(compact);
      used += cost;
    }
    const summary = `${formatCount(total)} result lines for ${pattern ? JSON.stringify(pattern) : 'the search'}; first ${shown.length} shown.`;
    const body = tailOnly([...shown], { ...output, output: '' }, context, 0);
    return { kind: 'tool_output', title: `${output.toolName} ${pattern}`.trim(), summary, body };
  },
};

/** Terminal commands: command and exit code, then the last ~20 lines (errors first on failure). */
export const terminalPolicy: ProjectionPolicy = {
  name: 'terminal',
  kind: 'terminal_log',
  matches: matchToolNames({
    names: [
      'terminal',
      'bash',
      'sh',
      'zsh',
      'shell',
      'exec',
      'execute',
      'command',
      'local_shell',
      'run_command',
      'run_terminal_cmd',
      'execute_command',
      'run_shell_command',
      'shell_command',
    ],
    patterns: [/^(?:run|exec|execute)_(?:shell|bash|terminal|command|cmd)$/],
  }),
  project(output, context): Projection {
    const command = stringArg(output, 'command', 'cmd', 'script') ?? '(command not given)';
    const failed =
      output.isError === true || (output.exitCode !== undefined && output.exitCode !== 0);
    const exit =
      output.exitCode === undefined ? (failed ? 'failed' : 'ok') : `exit code ${output.exitCode}`;
    const head = [`$ ${command}`, `${exit}`];
    if (failed) {
      const errors = errorLines(output.output, 8);
      if (errors.length) head.push('error lines:', ...errors.map((line) => `  ${line}`));
    }
    return {
      kind: 'terminal_log',
      title: `${output.toolName} ${command}`,
      summary: `${failed ? 'Failed' : 'Ran'} ${command} (${exit}; ${formatCount(lineCount(output.output))} lines of output).`,
      body: tailOnly(head, output, context, 20),
    };
  },
};

/** Patches and diffs: the files touched with +/- counts, then an excerpt. */
export const diffPolicy: ProjectionPolicy = {
  name: 'diff',
  kind: 'diff',
  matches: matchToolNames({
    names: ['patch', 'diff', 'apply_patch', 'git_diff', 'edit', 'edit_file', 'multi_edit'],
    patterns: [/^(?:git_)?diff_[a-z0-9_]+$/, /^[a-z0-9_]+_diff$/],
  }),
  project(output, context): Projection {
    const files = new Map<string, { added: number; removed: number }>();
    let current: { added: number; removed: number } | undefined;
    for (const line of output.output.split('\n')) {
      const header = /^\+\+\+ (?:b\/)?(.+)$/.exec(line) ?? /^diff --git a\/\S+ b\/(\S+)/.exec(line);
      if (header) {
        const name = header[1]!.trim();
        current = files.get(name) ?? { added: 0, removed: 0 };
        files.set(name, current);
        continue;
      }
      if (!current || line.startsWith('---')) continue;
      if (line.startsWith('+')) current.added++;
      else if (line.startsWith('-')) current.removed++;
    }
    const listed = [...files]
      .slice(0, 15)
      .map(([name, c]) => `  ${clip(name, 120)} +${c.added} -${c.removed}`);
    const lines = [`${files.size} files changed:`, ...listed];
    if (files.size > listed.length) lines.push(`  … and ${files.size - listed.length} more`);
    return {
      kind: 'diff',
      title: `${output.toolName} (${files.size} files)`,
      summary: `Diff touching ${files.size} files (${size(context)}).`,
      body: withExcerpt(lines, output, context),
    };
  },
};

/** Docs and skills: name, first paragraph and hash, then an excerpt. */
export const docPolicy: ProjectionPolicy = {
  name: 'doc',
  kind: 'doc',
  matches: matchToolNames({
    names: [
      'skill_view',
      'doc',
      'docs',
      'readme',
      'manual',
      'help',
      'browser_snapshot',
      'fetch',
      'web_fetch',
      'webfetch',
      'fetch_url',
    ],
    patterns: [
      /^skill_[a-z0-9_]+$/,
      /^browser_[a-z0-9_]+$/,
      /^(?:get|read|view)_(?:doc|docs|skill|manual)[a-z0-9_]*$/,
    ],
  }),
  project(output, context): Projection {
    const name = stringArg(output, 'name', 'skill', 'url', 'path', 'topic') ?? output.toolName;
    const firstParagraph = clip(
      output.output
        .slice(0, 4000)
        .trim()
        .split(/\n\s*\n/)[0] ?? '',
      200,
    );
    return {
      kind: 'doc',
      title: `${output.toolName} ${name}`,
      summary: `${name}: ${firstParagraph.replace(/\s+/g, ' ')}`,
      body: withExcerpt([], output, context),
    };
  },
};

/** Listings (issues, PRs, JSON arrays): the count and the first items. */
export const listPolicy: ProjectionPolicy = {
  name: 'list',
  kind: 'tool_output',
  matches: matchToolNames({
    names: ['ls', 'list', 'list_dir', 'list_directory', 'issues', 'pulls'],
    patterns: [/^list_[a-z0-9_]+$/, /^[a-z0-9_]+_list$/],
  }),
  project(output, context): Projection {
    let count: number | undefined;
    const top: string[] = [];
    const trimmed = output.output.trimStart();
    if (trimmed.startsWith('[') && output.output.length < 50_000_000) {
      try {
        const items: unknown = JSON.parse(output.output);
        if (Array.isArray(items)) {
          count = items.length;
          for (const item of items.slice(0, 10)) {
            const record = (typeof item === 'object' && item !== null ? item : {}) as Record<
              string,
              unknown
            >;
            const label =
              record.title ?? record.name ?? record.id ?? record.number ?? JSON.stringify(item);
            const number = record.number === undefined ? '' : `#${String(record.number)} `;
            top.push(`  ${number}${clip(String(label), 120)}`);
          }
        }
      } catch {
        // Not JSON after all: counted by lines below.
      }
    }
    if (count === undefined) {
      count = lineCount(output.output);
      for (const line of output.output.slice(0, 100_000).split('\n').slice(0, 10))
        top.push(`  ${clip(line, 120)}`);
    }
    return {
      kind: 'tool_output',
      title: `${output.toolName} (${count} items)`,
      summary: `${formatCount(count)} items; first ${top.length} shown.`,
      body: withExcerpt([`${count} items, first ${top.length}:`, ...top], { ...output }, context),
    };
  },
};

/** Anything else: a head/tail excerpt. */
export const fallbackPolicy: ProjectionPolicy = {
  name: 'tool-output',
  kind: 'tool_output',
  matches: () => true,
  project(output, context): Projection {
    return {
      kind: inferArtifactKind(output.output),
      title: output.toolName,
      summary: `Output of ${output.toolName} (${size(context)}).`,
      body: withExcerpt([], output, context),
    };
  },
};

/** Seed 001's table, most specific first; the fallback last. */
export const DEFAULT_PROJECTION_POLICIES: readonly ProjectionPolicy[] = [
  fileReadPolicy,
  terminalPolicy,
  diffPolicy,
  searchPolicy,
  listPolicy,
  docPolicy,
  fallbackPolicy,
];
