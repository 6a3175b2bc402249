import { RE2JS } from 're2js';
import { ArtifactError } from '../artifact-error.js';
import { MAX_PATTERN_CHARS } from './max-pattern-chars.js';

/** A compiled search pattern. */
export interface SearchMatcher {
  /** The first match in `line` starting at or after `from` (a UTF-16 index), or `undefined`. */
  find(line: string, from: number): { start: number; end: number } | undefined;
  /** For a literal pattern, its length; a window overlap of this size misses no match. */
  readonly literalLength?: number;
  /** For a literal pattern, a search of the file's raw bytes for the lines worth testing. */
  readonly prefilter?: BytePrefilter;
}

/**
 * Finds candidates in a file's raw bytes: every line that holds a match holds a candidate (a
 * candidate need not be a match, nor its start). Lines without one are never decoded.
 */
export interface BytePrefilter {
  /** Readies a search of `chunk`: the finder answers the first candidate at or after `from`, or -1. */
  start(chunk: Buffer): (from: number) => number;
  /** Bytes a candidate may span, minus one: one that starts this close to a chunk's end may be cut. */
  readonly overlap: number;
}

const LONG_S = '\u017f';
const KELVIN = '\u212a';
/** Bytes of `text` as a regex over a latin1 (one char per byte) string. */
const byteSource = (text: string) =>
  [...Buffer.from(text, 'utf8')].map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`).join('');
const CASED = /^\p{Changes_When_Casemapped}$/u;

/**
 * The byte prefilter of a literal. Case-sensitive: its UTF-8 bytes (`Buffer#indexOf`). Without
 * case: a regex over the bytes read as latin1, of the longest run of the pattern's characters
 * whose case variants are known: ASCII (each letter either case; k and s also as the Kelvin
 * sign and the long s, which fold with them) and characters that have no case at all (CJK,
 * digits, symbols); a cased character outside ASCII (é, ß, Σ) ends a run. No prefilter when
 * no such run exists or the pattern is not well-formed text (a lone surrogate, U+FFFD, which
 * invalid bytes decode to).
 */
function bytePrefilter(pattern: string, caseSensitive: boolean): BytePrefilter | undefined {
  // A lone surrogate has no UTF-8 bytes; U+FFFD also stands for any invalid byte.
  if (pattern.includes('\ufffd') || Buffer.from(pattern, 'utf8').toString('utf8') !== pattern)
    return undefined;
  if (caseSensitive) {
    const needle = Buffer.from(pattern, 'utf8');
    return { overlap: needle.length - 1, start: (chunk) => (from) => chunk.indexOf(needle, from) };
  }
  let best = { source: '', chars: 0, bytes: 0 };
  let run = { source: '', chars: 0, bytes: 0 };
  for (const char of pattern) {
    const lower = char.toLowerCase();
    let source: string | undefined;
    let bytes = Buffer.byteLength(char);
    if (char.charCodeAt(0) < 0x80) {
      const upper = char.toUpperCase();
      source =
        lower === 's'
          ? `(?:[sS]|${byteSource(LONG_S)})`
          : lower === 'k'
            ? `(?:[kK]|${byteSource(KELVIN)})`
            : lower !== upper
              ? `[${lower}${upper}]`
              : byteSource(char);
      if (lower === 's') bytes = 2;
      if (lower === 'k') bytes = 3;
    } else if (!CASED.test(char)) source = byteSource(char);
    if (source === undefined) {
      run = { source: '', chars: 0, bytes: 0 };
      continue;
    }
    run = { source: run.source + source, chars: run.chars + 1, bytes: run.bytes + bytes };
    if (run.chars > best.chars) best = run;
  }
  if (best.chars === 0) return undefined;
  const regex = new RegExp(best.source, 'g');
  return {
    overlap: best.bytes - 1,
    start(chunk) {
      const text = chunk.toString('latin1');
      return (from) => {
        regex.lastIndex = from;
        return regex.exec(text)?.index ?? -1;
      };
    },
  };
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
  const prefilter = options.regex
    ? undefined
    : bytePrefilter(pattern, options.caseSensitive === true);
  if (!options.regex && options.caseSensitive) {
    return {
      literalLength: pattern.length,
      ...(prefilter ? { prefilter } : {}),
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
    ...(prefilter ? { prefilter } : {}),
    find(line, from) {
      if (from === 0 && !compiled.test(line)) return undefined;
      const matcher = compiled.matcher(line);
      if (!matcher.find(from)) return undefined;
      return { start: matcher.start(), end: matcher.end() };
    },
  };
}
