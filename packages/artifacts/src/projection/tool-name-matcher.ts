/** Which tool names a policy handles: exact names and explicit patterns, nothing by substring. */
export interface ToolNameSpec {
  /** Exact tool names, compared without case (`read_file`, `bash`). */
  names?: readonly string[];
  /** Patterns tested against the whole name; anchor them (`/^list_\w+$/`). */
  patterns?: readonly RegExp[];
}

/**
 * A `matches(toolName)` for a policy. A name is tried as given and, when it carries a
 * namespace (`mcp__github__list_issues`, `functions.bash`, `github/list_issues`), as its last
 * segment too. `list_organizations` is not a search and `git_push` is not a shell: only the
 * names and patterns listed match.
 */
export function matchToolNames(spec: ToolNameSpec): (toolName: string) => boolean {
  const names = new Set((spec.names ?? []).map((name) => name.toLowerCase()));
  const patterns = spec.patterns ?? [];
  const test = (name: string) => names.has(name) || patterns.some((pattern) => pattern.test(name));
  return (toolName) => {
    if (typeof toolName !== 'string' || toolName.length === 0 || toolName.length > 200)
      return false;
    const name = toolName.toLowerCase();
    if (test(name)) return true;
    const segment = name.split(/__|[./:]/).at(-1);
    return segment !== undefined && segment !== name && test(segment);
  };
}
