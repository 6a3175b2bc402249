import { RE2JS } from 're2js';
import { ArtifactError } from './artifact-error.js';

/** Longest pattern accepted, in UTF-16 code units. */
export const MAX_PATTERN_CHARS = 256;

/** A compiled search pattern. */
export interface SearchMatcher {
  /** The first match in `line` starting at or after `from` (a UTF-16 index), or `undefined`. */
  find(line: string, from: number): { start: number; end: number } | undefined;
  /** For a literal pattern, its length; a window overlap of this size misses no match. */
  readonly literalLength?: number;
}

/**
 * JavaScript's `\uXXXX` and `\u{X…}` escapes in RE2's spelling (`\x{X…}`), leaving escaped
 * backslashes alone, so a pattern written for JavaScript means the same to RE2.
 */
function toRe2Syntax(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char !== '\\' || i + 1 >= pattern.length) {
      out += char;
      continue;
    }
    const next = pattern[i + 1]!;
    if (next === 'u') {
      const braced = /^\{([0-9A-Fa-f]{1,6})\}/.exec(pattern.slice(i + 2));
      const plain = /^[0-9A-Fa-f]{4}/.exec(pattern.slice(i + 2));
      if (braced) {
        out += `\\x{${braced[1]}}`;
        i += 2 + braced[0].length - 1;
        continue;
      }
      if (plain) {
        out += `\\x{${plain[0]}}`;
        i += 5;
        continue;
      }
    }
    out += char + next;
    i++;
  }
  return out;
}

function parsesAsJavaScript(pattern: string): boolean {
  for (const flags of ['u', '']) {
    try {
      new RegExp(pattern, flags);
      return true;
    } catch {
      // try the next flag set
    }
  }
  return false;
}

/**
 * Compiles a search pattern. Literal text by default (case-insensitive unless `caseSensitive`);
 * with `regex`, RE2 syntax run by `re2js`, whose matching time is linear in the line for any
 * pattern, so `(a|a)+$` or `.*.*.*.*x` cannot stall a search. Patterns are 1–256 chars. RE2 has
 * no look-around and no back-references: such a pattern is refused with
 * `artifact_pattern_unsupported`, one that does not parse with `artifact_pattern_invalid`, an
 * empty or over-long one with `artifact_invalid_argument`.
 */
export function compileSearchPattern(
  pattern: string,
  options: { regex?: boolean; caseSensitive?: boolean } = {},
): SearchMatcher {
  if (typeof pattern !== 'string' || pattern.length === 0 || pattern.length > MAX_PATTERN_CHARS) {
    throw new ArtifactError({
      code: 'artifact_invalid_argument',
      message: `search pattern must be 1-${MAX_PATTERN_CHARS} chars`,
    });
  }
  if (!options.regex && options.caseSensitive) {
    return {
      literalLength: pattern.length,
      find(line, from) {
        const start = line.indexOf(pattern, from);
        return start < 0 ? undefined : { start, end: start + pattern.length };
      },
    };
  }
  const flags = options.caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE;
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(options.regex ? toRe2Syntax(pattern) : RE2JS.quote(pattern), flags);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    if (parsesAsJavaScript(pattern)) {
      throw new ArtifactError({
        code: 'artifact_pattern_unsupported',
        message: `regex refused (${reason}): searches run on a linear-time engine (RE2 syntax), which has no look-around, back-references or possessive quantifiers, and repeats at most {1000}; rewrite the pattern or search for a literal`,
        subject: pattern,
        cause,
      });
    }
    throw new ArtifactError({
      code: 'artifact_pattern_invalid',
      message: `invalid regular expression (${reason})`,
      subject: pattern,
      cause,
    });
  }
  return {
    ...(options.regex ? {} : { literalLength: pattern.length }),
    find(line, from) {
      if (from === 0 && !compiled.test(line)) return undefined;
      const matcher = compiled.matcher(line);
      if (!matcher.find(from)) return undefined;
      return { start: matcher.start(), end: matcher.end() };
    },
  };
}
