const SLUG_CHARS = 48;
const DIGEST_CHARS = 16;

/**
 * A readable, filesystem-safe stand-in for an operation id of any shape: characters outside
 * `[A-Za-z0-9_.-]` become `_`, runs of them collapse, the result starts with a letter or digit,
 * holds no `..` and is at most 48 chars. `functions.bash:0` → `functions.bash_0`,
 * `toolu_01A/B` → `toolu_01A_B`, an empty or all-symbol id → `result`.
 */
export function operationSlug(opId: string): string {
  const slug = String(opId)
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, SLUG_CHARS)
    .replace(/[^A-Za-z0-9]+$/, '');
  return slug || 'result';
}

/**
 * The basename a stored result gets: `<operation slug>-<first 16 hex of its SHA-256>.txt`.
 * Two results settled under the same (reused) operation id get different names unless their
 * bytes are the same, so a file, once written, never changes content.
 */
export function artifactFileName(opId: string, digest: string): string {
  return `${operationSlug(opId)}-${digest.slice(0, DIGEST_CHARS)}.txt`;
}
