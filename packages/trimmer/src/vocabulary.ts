/**
 * The words the trimmer knows, in one place: everything else it decides from the statistics of
 * the input. Key-name hints only break ties between fields the statistics rank alike.
 */

/** The levels a line can state, least to most severe. */
export const LEVEL_NAMES = ['trace', 'debug', 'info', 'notice', 'warn', 'error', 'fatal'] as const;
export type LevelName = (typeof LEVEL_NAMES)[number];

/**
 * Every word set the trimmer reads: `createStructuralTrimmer({ vocabulary })` replaces any of
 * them (`resolveVocabulary`, which checks each as said here), `DEFAULT_VOCABULARY` holds its
 * own. Words are matched lower-cased unless said otherwise.
 */
export interface Vocabulary {
  /** Key words that read as a record's name, with how strongly (a weight ≥ 0). */
  readonly identityWords: Readonly<Record<string, number>>;
  /** Last words of a key that read as a state. */
  readonly stateWords: ReadonlySet<string>;
  /** Words before `code` that make it a state besides the state words (`return_code`, `httpCode`). */
  readonly codeOf: ReadonlySet<string>;
  /**
   * Words of a key that say it holds a time: a number that could be an epoch or an id
   * (`1652857675`) is read as a time only under such a key (`created`, `ts`); ISO 8601 dates are
   * times under any key.
   */
  readonly timeKeyWords: ReadonlySet<string>;
  /** Question words that ask when: they select the records' time field. */
  readonly timeQuestionWords: ReadonlySet<string>;
  /**
   * Question words that ask how many records hold each value (`how many`, `count`): the note's
   * distribution of an asked field is then the answer, and gets the room it needs.
   */
  readonly countWords: ReadonlySet<string>;
  /** Question words that ask for the records at the end, or the start, of their time order. */
  readonly newestWords: ReadonlySet<string>;
  readonly oldestWords: ReadonlySet<string>;
  /** Question words before a time that ask for what came after it, or before it. */
  readonly afterWords: ReadonlySet<string>;
  readonly beforeWords: ReadonlySet<string>;
  /** Question words that say nothing about what to keep: they never select a record or field. */
  readonly stopwords: ReadonlySet<string>;
  /**
   * Error-like words in values, matched as plain words: ASCII letters and digits, a letter
   * first, single spaces or hyphens between (`exit code`, `out-of-memory`), two characters at
   * least. The word boundary before each, and the non-zero status after `exit code` / `exit
   * status`, are checked after matching: plain alternatives keep the scan of a large input about
   * 40% cheaper than per-branch boundaries and groups. A word also starts inside an identifier
   * where a capital follows a lower-case letter or a digit (`OutOfMemoryError`).
   */
  readonly errorWords: readonly string[];
  /**
   * Words that state a line's level where they stand as a level (upper case, fenced as `[warn]`,
   * opening the line as `error:`, or the value of a level key), each with the level it states:
   * ASCII letters, digits and `_`, at most 64 characters.
   */
  readonly levelWords: Readonly<Record<string, LevelName>>;
  /**
   * One-letter levels (one ASCII letter, upper case), where a letter stands as a level: `E: …`
   * opening a line or after `file:1:2:`, `severity: E`, and a letter with four digits of date
   * opening a line (`E0312 10:00:00.1 …`, as klog writes) for the letters of `info` and above.
   */
  readonly levelLetters: Readonly<Record<string, LevelName>>;
  /** Names of a field whose value is the line's level (`level=warn`), as level words are spelt. */
  readonly levelKeys: ReadonlySet<string>;
  /**
   * Marks opening a line, followed by a space, that say it failed or warns, as test runners and
   * linters print them (`✖ Sort these imports.`, `⚠ deprecated`): one character outside ASCII.
   */
  readonly levelMarks: Readonly<Record<string, LevelName>>;
  /**
   * The one non-zero-exit rule: a number after one of `exitWords` (a key or a phrase: `exit code
   * 2`, `exit_code=1`, `returncode: 137`), past any of `exitFillers`, makes a line at least an
   * error when it is not zero. Spelt as level words are.
   */
  readonly exitWords: ReadonlySet<string>;
  readonly exitFillers: ReadonlySet<string>;
  /** Words that make a line at least a warning wherever they stand (an alert `firing`). */
  readonly alertWords: ReadonlySet<string>;
  /**
   * The one response-status rule: a three-digit status right after a request's protocol, its
   * version and closing quote (`"GET /cart HTTP/1.1" 404`, as access logs write it), makes a
   * line that states no level a warning from 400 and an error from 500. The protocols, spelt as
   * level words are.
   */
  readonly statusProtocols: ReadonlySet<string>;
  /**
   * How languages open an exception's report, each making its line an error (case kept): a
   * dotted name ending in one of `exceptionSuffixes` (ASCII letters, digits and `_`) and a colon
   * opening the line (`java.lang.IllegalStateException: …`, `ValueError: …`), and a line opening
   * with one of `exceptionOpeners` (`Traceback (most recent call last):`).
   */
  readonly exceptionSuffixes: readonly string[];
  readonly exceptionOpeners: readonly string[];
  /** Openings of a line that continue the event above it, as an indented one does (case kept). */
  readonly continuationOpeners: readonly string[];
}

const words = (list: string): string[] => list.trim().split(/\s+/);
const wordSet = (list: string): Set<string> => new Set(words(list));

/** Each word of the lists, mapped to the level it is listed under. */
function levelsOf(lists: Record<LevelName, string>): Record<string, LevelName> {
  const map: Record<string, LevelName> = {};
  for (const level of LEVEL_NAMES) for (const word of words(lists[level])) map[word] = level;
  return map;
}

export const DEFAULT_VOCABULARY: Vocabulary = Object.freeze({
  identityWords: {
    name: 3,
    title: 2.5,
    login: 2.5,
    slug: 2.5,
    hostname: 2.5,
    key: 2.2,
    id: 2,
    uid: 1.6,
    uuid: 1.6,
    sha: 1.6,
    arn: 1.6,
    number: 1.8,
    email: 2,
    path: 1.5,
    host: 2,
  },
  stateWords: wordSet(`status state phase conclusion result outcome level severity code exit
    reason message error health type condition verdict ready`),
  codeOf: wordSet('return response http rc'),
  timeKeyWords: wordSet(`time times date datetime ts timestamp at created updated modified
    started finished ended seen expires epoch since until utc`),
  timeQuestionWords: wordSet('when time times date dates timestamp timestamps'),
  countWords: wordSet('many often count counts tally distribution breakdown frequency histogram'),
  newestWords: wordSet('newest latest last recent youngest'),
  oldestWords: wordSet('oldest earliest first'),
  afterWords: wordSet('since after from'),
  beforeWords: wordSet('before until till to'),
  stopwords: wordSet(`a an and any are as at be been but by can could did do does for from get
    give had has have how i if in into is it its me my no not of on or our please return show so
    than that the their them then there these they this those to was we were what when where
    which who whom whose why will with would you your about tell find named called value field
    record entry line item given listed shown mentioned appears appear say says said anything
    something everything wrong happened happening going each every all list many much often
    occur per`),
  errorWords: [
    ...words('error fail failed failure fatal exception traceback panic critical denied refused'),
    ...['timed out', 'exit code', 'exit status'],
    ...words('crashloopbackoff oomkilled backoff evicted unhealthy'),
  ],
  levelWords: levelsOf({
    trace: 'trace finest',
    debug: 'debug verbose fine',
    info: 'info information informational',
    notice: 'notice',
    warn: 'warn warning',
    error: 'error err severe',
    fatal: 'fatal critical crit alert emerg emergency panic',
  }),
  levelLetters: { T: 'trace', D: 'debug', I: 'info', W: 'warn', E: 'error', F: 'fatal' },
  levelKeys: wordSet('level lvl loglevel log_level levelname severity severitytext severity_text'),
  levelMarks: {
    '\u2716': 'error', // ✖
    '\u2717': 'error', // ✗
    '\u2718': 'error', // ✘
    '\u2715': 'error', // ✕
    '\u274c': 'error', // ❌
    '\u00d7': 'error', // ×
    '\u2a2f': 'error', // ⨯
    '\u26a0': 'warn', // ⚠
  },
  exitWords: wordSet(
    'exit exited exitcode exit_code exitstatus exit_status returncode return_code',
  ),
  exitFillers: wordSet('with code status value'),
  alertWords: wordSet('firing'),
  statusProtocols: wordSet('http'),
  exceptionSuffixes: ['Error', 'Exception'],
  exceptionOpeners: ['Traceback (most recent call', 'Exception in thread'],
  continuationOpeners: ['Caused by:'],
} satisfies Vocabulary);
