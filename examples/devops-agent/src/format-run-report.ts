import { trailingDisclosureNotes, utf8ByteLength } from '@compaction/core';
import type { DevopsAgentRun } from './run-devops-agent.js';

function kb(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(2)} MB`
    : `${(bytes / 1024).toFixed(1)} KB`;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, i) =>
    Math.max(cell.length, ...rows.map((row) => row[i]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** The human-readable report of a run: one row per result, the continuation view, the answer. */
export function formatRunReport(run: DevopsAgentRun): string {
  const out: string[] = [];
  const counter = run.compaction.tokenCounter;
  const tokens = (text: string) => counter.countTokens(text);
  out.push(
    '',
    `Tokens counted with ${counter.name}.`,
    `Synthesis prompt (budget ${kb(run.compaction.synthesisBudgets.totalBytes)} in all, ${kb(run.compaction.synthesisBudgets.perResultBytes)} per result):`,
  );
  const rows = run.synthesis.sections.map((section) => {
    const step = run.steps.find((s) => s.id === section.stepId)!;
    const original = utf8ByteLength(step.result ?? '');
    const view = utf8ByteLength(section.text);
    const notes = trailingDisclosureNotes(section.text).map((note) => note.kind);
    const decision =
      section.status !== 'succeeded'
        ? section.status === 'failed'
          ? `failed-operation evidence (${section.evidence})`
          : 'rejected before dispatch'
        : `${section.metadata?.strategy ?? '?'}${section.text.includes('\nFull output stored as artifact ') ? ' + stored' : ''}`;
    return [
      section.stepId,
      section.toolName ?? '',
      section.status === 'succeeded' ? `${kb(original)} → ${kb(view)}` : `— → ${kb(view)}`,
      section.status === 'succeeded'
        ? `${tokens(step.result ?? '')} → ${tokens(section.text)}`
        : `${tokens(section.text)}`,
      decision,
      notes.length ? notes.join(', ') : section.metadata?.contentLost === false ? '(lossless)' : '',
      section.durationMs !== undefined ? `${section.durationMs.toFixed(0)} ms` : '',
    ];
  });
  out.push(table(['step', 'tool', 'bytes', 'tokens', 'decision', 'notes', 'time'], rows));
  out.push(
    `total: ${kb(run.synthesis.bytes)} (${tokens(run.synthesis.text)} tokens) from ${kb(run.steps.reduce((s, step) => s + utf8ByteLength(step.result ?? ''), 0))} of results`,
  );

  out.push(
    '',
    `Continuation section for the planner (soft target ${kb(run.compaction.config.continuation.maxTotalBytes)}): ${kb(run.continuation.bytes)}, ${run.continuation.stepsShown} of ${run.continuation.stepsTotal} steps shown`,
  );
  out.push(
    table(
      ['step', 'view'],
      run.continuation.views.map((view) => [view.stepId, view.view]),
    ),
  );
  if (run.binding)
    out.push(
      `phase 2 bound ${run.binding.template} → ${run.binding.value} (against the full result, not the digest)`,
    );

  if (run.compaction.artifacts) {
    out.push(
      '',
      `Full results of the results that did not fit are in ${run.compaction.artifacts.dir}`,
      'Open them in the inspector:  pnpm exec compaction serve --dir .demo   (then the printed URL)',
      'or give them to an MCP client: pnpm exec compaction mcp --dir .demo',
    );
  }
  out.push('', 'Did the evidence survive compaction?');
  for (const needle of run.needles) out.push(`  ${needle.found ? 'yes' : 'NO '}  ${needle.what}`);
  out.push(
    '',
    `Answer (${run.mode === 'model' ? 'from the model' : 'offline, structural floor only'}):`,
    run.answer,
  );
  return out.join('\n');
}
