// Loaded with `node --import` into a child process a benchmark runs (such as the CLI): prints
// the process's peak resident set size to standard error as it exits.
process.on('exit', () => {
  process.stderr.write(`\ncompaction-bench-max-rss=${process.resourceUsage().maxRSS * 1024}\n`);
});
