import { CONFIG_KNOBS, type KnobDefinition } from './config-knobs.js';
import { formatDuration } from './parse-duration.js';

const KIND_TEXT: Readonly<Record<KnobDefinition['kind'], string>> = {
  bytes: 'bytes, positive integer (0, negative or empty: default)',
  bytes0: 'bytes, integer ≥ 0 (0 disables)',
  count: 'positive integer (0, negative or empty: default)',
  count0: 'integer ≥ 0 (0 disables)',
  boolean: 'only the literal `true` (any case) enables; any other value is false',
  duration:
    'duration such as `45s`, `5m`, `1h30m`, rounded up to whole milliseconds (0 from the environment: default)',
  string: 'text (empty: default)',
  secret: 'text (empty: unset); never printed, `compaction config` shows only whether it is set',
  list: 'option only',
};

function formatKind(knob: KnobDefinition): string {
  const text = KIND_TEXT[knob.kind];
  return knob.minimum === undefined
    ? text
    : `${text}; a value below ${knob.minimum} is raised to ${knob.minimum}, with a warning`;
}

function formatDefault(knob: KnobDefinition): string {
  const value = knob.defaultValue;
  if (value === undefined) return '(unset)';
  if (knob.kind === 'duration') return formatDuration(value as number);
  if (Array.isArray(value)) return value.length ? value.join(', ') : '(none)';
  return String(value);
}

/**
 * The environment-variable reference as Markdown, rendered from the knob table. docs/configuration.md
 * is this text; a test fails when the two differ.
 */
export function renderEnvReference(knobs: readonly KnobDefinition[] = CONFIG_KNOBS): string {
  const rows = knobs.map(
    (knob) =>
      `| ${knob.env ? `\`${knob.env}\`` : '—'} | \`${knob.path}\` | ${formatDefault(knob)} | ${formatKind(knob)} | ${knob.doc} | ${knob.origin} |`,
  );
  return `# Configuration reference

<!-- Generated from CONFIG_KNOBS in packages/core/src/config/config-knobs.ts by
     \`pnpm docs:env\`. Do not edit by hand: a test compares this file with the table. -->

Every knob resolves with the precedence **explicit option → \`COMPACTION_*\` variable → default**
(\`loadConfig({ options, env })\` in \`@compaction/core\`). \`compaction config\` prints the resolved
values and where each came from.

Environment values are read as follows: byte budgets and counts are plain integers (16 KB is
\`16384\`); an empty value is unset; a zero or negative value is ignored and the default stands,
except for the four knobs that accept \`0\` as "disabled" (the same \`0\` is accepted as an
explicit option); a trim budget below the structural trimmer's minimum (256 bytes), or an
artifact inline limit below 1000 characters (the room a stored output's excerpt and marker line
need), is raised to it with a warning naming the knob, from an option or the environment alike;
booleans are enabled only by the
literal \`true\`, so \`1\`, \`yes\` and \`on\` read as false; durations use Go syntax, are
rounded up to whole milliseconds (\`1.5ms\` is 2), and an
environment \`0\` is ignored (set \`0\` programmatically to disable the deadline or the cache TTL).
Every value that is ignored or read unexpectedly is reported as a warning naming its variable,
and so is a \`COMPACTION_*\` variable no knob reads (a typo), with the closest known name.

| Variable | Config path | Default | Format | What it controls | Source |
| --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
`;
}
