/**
 * The words the trimmer knows, in one place: everything else it decides from the statistics of
 * the input. Key-name hints only break ties between fields the statistics rank alike.
 */

export const IDENTITY_WORDS: Readonly<Record<string, number>> = {
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
};
export const STATE_WORDS = new Set([
  'status',
  'state',
  'phase',
  'conclusion',
  'result',
  'outcome',
  'level',
  'severity',
  'code',
  'exit',
  'reason',
  'message',
  'error',
  'health',
  'type',
  'condition',
  'verdict',
  'ready',
]);

/** Words before `code` that make it a state besides the state words (`return_code`, `httpCode`). */
export const CODE_OF = new Set(['return', 'response', 'http', 'rc']);

/** Question words that ask when: they select the records' time field. */
export const TIME_QUESTION_WORDS = new Set([
  'when',
  'time',
  'times',
  'date',
  'dates',
  'timestamp',
  'timestamps',
]);

/**
 * Question words that ask how many records hold each value (`how many`, `how often`, `count`):
 * the note's distribution of an asked field is then the answer, and gets the room it needs.
 */
export const COUNT_WORDS = new Set([
  'many',
  'often',
  'count',
  'counts',
  'tally',
  'distribution',
  'breakdown',
  'frequency',
  'histogram',
]);
/** Question words that ask for the records at the end of their time order. */
export const NEWEST_WORDS = new Set(['newest', 'latest', 'last', 'recent', 'youngest']);
/** Question words that ask for the records at the start of their time order. */
export const OLDEST_WORDS = new Set(['oldest', 'earliest', 'first']);

/**
 * Words of a question that say nothing about what to keep: they never select a record or a
 * field, whatever the payload holds.
 */
export const STOPWORDS = new Set(
  `a an and any are as at be been but by can could did do does for from get give had has have
  how i if in into is it its me my no not of on or our please return show so than that the their
  them then there these they this those to was we were what when where which who whom whose why
  will with would you your about tell find named called value field record entry line item
  given listed shown mentioned appears appear say says said anything something everything
  wrong happened happening going each every all list many much often occur
  per`.split(/\s+/),
);

/** Question words before a time that ask for what came after it. */
export const AFTER_WORDS = new Set(['since', 'after', 'from']);
/** Question words before a time that ask for what came before it. */
export const BEFORE_WORDS = new Set(['before', 'until', 'till', 'to']);

/**
 * Words of a key that say it holds a time: a number that could be an epoch or an id
 * (`1652857675`) is read as a time only under such a key (`created`, `ts`); ISO 8601 dates are
 * times under any key.
 */
export const TIME_KEY_WORDS = new Set([
  'time',
  'times',
  'date',
  'datetime',
  'ts',
  'timestamp',
  'at',
  'created',
  'updated',
  'modified',
  'started',
  'finished',
  'ended',
  'seen',
  'expires',
  'epoch',
  'since',
  'until',
  'utc',
]);

// Error-like content, as plain words: the word boundary before each, and the non-zero status
// after `exit code` / `exit status`, are checked after matching. Plain alternatives keep the
// scan of a large input about 40% cheaper than per-branch boundaries and groups.
// A word also starts inside an identifier where a capital follows a lower-case letter or a digit
// (`OutOfMemoryError`, `SocketTimeoutException`, `ImagePullBackOff`).
export const ERROR_WORDS = [
  'error',
  'failed',
  'failure',
  'fatal',
  'exception',
  'traceback',
  'panic',
  'critical',
  'denied',
  'refused',
  'timed out',
  'exit code',
  'exit status',
  'crashloopbackoff',
  'oomkilled',
  'backoff',
  'evicted',
  'unhealthy',
];

/** The levels a line can state, least to most severe. */
export const LEVEL_NAMES = ['trace', 'debug', 'info', 'notice', 'warn', 'error', 'fatal'] as const;
export type LevelName = (typeof LEVEL_NAMES)[number];

/**
 * Words that state a line's level where they stand as a level (upper case, fenced as `[warn]`,
 * opening the line as `error:`, or the value of a level key): ASCII letters, digits and `_`,
 * 3 to 24 characters.
 */
export const LEVEL_WORDS: Readonly<Record<string, LevelName>> = {
  trace: 'trace',
  finest: 'trace',
  debug: 'debug',
  verbose: 'debug',
  fine: 'debug',
  info: 'info',
  information: 'info',
  informational: 'info',
  notice: 'notice',
  warn: 'warn',
  warning: 'warn',
  error: 'error',
  err: 'error',
  severe: 'error',
  fatal: 'fatal',
  critical: 'fatal',
  crit: 'fatal',
  alert: 'fatal',
  emerg: 'fatal',
  emergency: 'fatal',
  panic: 'fatal',
};

/**
 * One-letter levels (upper case), where a letter stands as a level: `E: …` opening a line or
 * after `file:1:2:`, `severity: E`, and a letter with four digits of date opening a line
 * (`E0312 10:00:00.1 …`, as klog writes) for the letters of `warn` and above.
 */
export const LEVEL_LETTERS: Readonly<Record<string, LevelName>> = {
  T: 'trace',
  D: 'debug',
  I: 'info',
  W: 'warn',
  E: 'error',
  F: 'fatal',
};

/** Names of a field whose value is the line's level (`level=warn`, `"severity":"E"`). */
export const LEVEL_KEYS = new Set([
  'level',
  'lvl',
  'loglevel',
  'log_level',
  'levelname',
  'severity',
  'severitytext',
  'severity_text',
]);

/**
 * Marks opening a line, followed by a space, that say it failed or warns, as test runners and
 * linters print them (`✖ Sort these imports.`, `× handles retries`, `⚠ deprecated`): one
 * character each, outside ASCII.
 */
export const LEVEL_MARKS: Readonly<Record<string, LevelName>> = {
  '\u2716': 'error', // ✖
  '\u2717': 'error', // ✗
  '\u2718': 'error', // ✘
  '\u2715': 'error', // ✕
  '\u274c': 'error', // ❌
  '\u00d7': 'error', // ×
  '\u2a2f': 'error', // ⨯
  '\u26a0': 'warn', // ⚠
};

/**
 * The one non-zero-exit rule: a number after one of these words (a key or a phrase: `exit code
 * 2`, `exit_code=1`, `returncode: 137`), past any of `EXIT_FILLERS`, makes a line at least an
 * error when it is not zero.
 */
export const EXIT_WORDS = new Set([
  'exit',
  'exited',
  'exitcode',
  'exit_code',
  'exitstatus',
  'exit_status',
  'returncode',
  'return_code',
]);
export const EXIT_FILLERS = new Set(['with', 'code', 'status', 'value']);

/** Words that make a line at least a warning wherever they stand (an alert `firing`). */
export const ALERT_WORDS = new Set(['firing']);

/**
 * How languages open an exception's report, each making its line an error: a dotted name ending
 * in one of `EXCEPTION_SUFFIXES` and a colon opening the line (`java.lang.IllegalStateException:
 * …`, `ValueError: …`), and a line opening with one of `EXCEPTION_OPENERS` (`Traceback (most
 * recent call last):`, `Exception in thread "main" …`).
 */
export const EXCEPTION_SUFFIXES = ['Error', 'Exception'];
export const EXCEPTION_OPENERS = ['Traceback (most recent call', 'Exception in thread'];

/** A line opening with one of these continues the event above it, as an indented one does. */
export const CONTINUATION_OPENERS = ['Caused by:'];

/**
 * Every word set above, as the trimmer reads them: `createStructuralTrimmer({ vocabulary })`
 * replaces any of them (`resolveVocabulary`), `DEFAULT_VOCABULARY` holds these.
 */
export interface Vocabulary {
  /** Key words that read as a record's name, with how strongly (`IDENTITY_WORDS`). */
  readonly identityWords: Readonly<Record<string, number>>;
  /** Last words of a key that read as a state (`STATE_WORDS`). */
  readonly stateWords: ReadonlySet<string>;
  /** Words before `code` that make it a state (`CODE_OF`). */
  readonly codeOf: ReadonlySet<string>;
  /** Words of a key that say it holds a time (`TIME_KEY_WORDS`). */
  readonly timeKeyWords: ReadonlySet<string>;
  /** Question words that ask when (`TIME_QUESTION_WORDS`). */
  readonly timeQuestionWords: ReadonlySet<string>;
  /** Question words that ask how many (`COUNT_WORDS`). */
  readonly countWords: ReadonlySet<string>;
  /** Question words for either end of a time order (`NEWEST_WORDS`, `OLDEST_WORDS`). */
  readonly newestWords: ReadonlySet<string>;
  readonly oldestWords: ReadonlySet<string>;
  /** Question words before a time (`AFTER_WORDS`, `BEFORE_WORDS`). */
  readonly afterWords: ReadonlySet<string>;
  readonly beforeWords: ReadonlySet<string>;
  /** Question words that never select anything (`STOPWORDS`). */
  readonly stopwords: ReadonlySet<string>;
  /** Error-like words in values (`ERROR_WORDS`). */
  readonly errorWords: readonly string[];
  /** Words that state a level, and the level each states (`LEVEL_WORDS`). */
  readonly levelWords: Readonly<Record<string, LevelName>>;
  /** One-letter levels (`LEVEL_LETTERS`). */
  readonly levelLetters: Readonly<Record<string, LevelName>>;
  /** Keys whose value is a level (`LEVEL_KEYS`). */
  readonly levelKeys: ReadonlySet<string>;
  /** Marks opening a line that state a level (`LEVEL_MARKS`). */
  readonly levelMarks: Readonly<Record<string, LevelName>>;
  /** Words before an exit status, and the words that may stand between (`EXIT_WORDS`, `EXIT_FILLERS`). */
  readonly exitWords: ReadonlySet<string>;
  readonly exitFillers: ReadonlySet<string>;
  /** Words that make a line at least a warning (`ALERT_WORDS`). */
  readonly alertWords: ReadonlySet<string>;
  /** How an exception's report opens (`EXCEPTION_SUFFIXES`, `EXCEPTION_OPENERS`). */
  readonly exceptionSuffixes: readonly string[];
  readonly exceptionOpeners: readonly string[];
  /** Openings of a line that continues the event above it (`CONTINUATION_OPENERS`). */
  readonly continuationOpeners: readonly string[];
}

export const DEFAULT_VOCABULARY: Vocabulary = Object.freeze({
  identityWords: IDENTITY_WORDS,
  stateWords: STATE_WORDS,
  codeOf: CODE_OF,
  timeKeyWords: TIME_KEY_WORDS,
  timeQuestionWords: TIME_QUESTION_WORDS,
  countWords: COUNT_WORDS,
  newestWords: NEWEST_WORDS,
  oldestWords: OLDEST_WORDS,
  afterWords: AFTER_WORDS,
  beforeWords: BEFORE_WORDS,
  stopwords: STOPWORDS,
  errorWords: ERROR_WORDS,
  levelWords: LEVEL_WORDS,
  levelLetters: LEVEL_LETTERS,
  levelKeys: LEVEL_KEYS,
  levelMarks: LEVEL_MARKS,
  exitWords: EXIT_WORDS,
  exitFillers: EXIT_FILLERS,
  alertWords: ALERT_WORDS,
  exceptionSuffixes: EXCEPTION_SUFFIXES,
  exceptionOpeners: EXCEPTION_OPENERS,
  continuationOpeners: CONTINUATION_OPENERS,
});
