// Shared helpers for benchmarks: machine description, timing, and result files.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const resultsDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'results');

/** One line naming the machine and runtime the figures were measured on. */
export function machineLine() {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
}

/** Median wall-clock milliseconds of `fn` over `runs` runs after `warmup` unmeasured ones. */
export function medianMs(fn, { runs = 7, warmup = 2 } = {}) {
  for (let i = 0; i < warmup; i++) fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    globalThis.gc?.();
    const start = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** A Markdown table from a header row and data rows. */
export function markdownTable(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Writes bench/results/<name>.md with the machine line on top, and prints it. */
export function writeResult(name, title, body) {
  mkdirSync(resultsDir, { recursive: true });
  const text = `# ${title}\n\nMachine: ${machineLine()}\n\n${body.trim()}\n`;
  writeFileSync(join(resultsDir, `${name}.md`), text);
  console.log(text);
}
