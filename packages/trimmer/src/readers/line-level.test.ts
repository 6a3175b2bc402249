import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  detectLevel,
  isContinuationLine,
  LEVEL_NAMES,
  LEVEL_WINDOW,
  levelOf,
  NO_LEVEL,
  type RawLevels,
} from './line-level.js';
import { withTextUnits } from './text-units.js';

const detect = (text: string, from: number, to: number, raw: RawLevels) =>
  withTextUnits(text, (units) => detectLevel(units, text, from, to, raw));
const continues = (line: string) =>
  withTextUnits(line, (units) => isContinuationLine(units, line, 0, line.length));

function levelName(line: string, raw: RawLevels = new Map()): string {
  const level = levelOf(detect(line, 0, line.length, raw));
  if (level === NO_LEVEL) return 'none';
  if (level < LEVEL_NAMES.length) return LEVEL_NAMES[level]!;
  for (const [name, id] of raw) if (id === level) return `raw:${name}`;
  return 'raw:?';
}

describe('detectLevel', () => {
  it.each([
    ['2024-03-18T09:41:27.302Z ERROR [sync] write failed', 'error'],
    ['2025-08-08 07:06:59.594 INFO     logger initialized', 'info'],
    ['081109 214043 2561 WARN dfs.DataNode$DataXceiver: got exception', 'warn'],
    ['[Sun Dec 04 04:47:44 2005] [error] mod_jk child workerEnv in error state 6', 'error'],
    ['[Sun Dec 04 04:47:44 2005] [notice] workerEnv.init() ok', 'notice'],
    ['npm ERR! code ELIFECYCLE', 'error'],
    ['npm WARN deprecated request@2.88.2', 'warn'],
    ['✖ Sort these imports.', 'error'],
    ['Dec 10 07:51:15 LabSZ sshd[24324]: error: Received disconnect from 195.154.37.122', 'error'],
    ['Dec 10 09:32:20 LabSZ sshd[24680]: fatal: Write failed: Connection reset by peer', 'fatal'],
    // A bracket opening the line is a prefix (a time, a job): the message after it opens it.
    ["[05:04:04] Warning: The kernel modules directory '/lib/modules' is missing", 'warn'],
    ["[05:01:52] Info: Found the 'diff' command: /usr/bin/diff", 'info'],
    ['[build 42] Error: cannot find module', 'error'],
    ['[Pipeline] echo error handling done', 'none'],
    ['[05:04:04] checking files... warning: none found', 'none'],
    // A lone letter after a line's numbers, before a tag (Android's logcat).
    ['03-17 16:13:47.150  1702 17633 E ActivityManager: applyOptionsLocked: Unknown', 'error'],
    ['03-17 16:13:38.811  1702  2395 D WindowManager: printFreezingDisplayLogs', 'debug'],
    ['03-17 16:15:19.993  1702  2644 W ActivityManager: Scheduling restart', 'warn'],
    ['2024 I am here: yes', 'none'],
    ['route 5 W Main St: closed', 'none'],
    ['   × retries the upload 3 times 12ms', 'error'],
    ['\u001b[31m✗\u001b[0m build failed', 'error'],
    ['⚠\ufe0f  deprecated option --legacy', 'warn'],
    ['level=warn ts=2024-03-18T09:41:27Z msg="slow disk"', 'warn'],
    ['{"level":"error","msg":"payment capture failed"}', 'error'],
    ['{"time":1,"severity":"WARNING","message":"x"}', 'warn'],
    ['src/billing/invoice.py:214:9: severity: E undefined-name', 'error'],
    ['- file: lib/export.rb, line: 88, severity: E, rule: Lint/ShadowedException', 'error'],
    ['app/models/refund.rb:41:5: E: Lint/UselessAssignment: useless assignment', 'error'],
    ['app/models/refund.rb:41:5: W: Style/StringLiterals: prefer single quotes', 'warn'],
    ['E: Unable to locate package libfoo', 'error'],
    ['E0318 09:41:27.302114    2231 controller.go:114] failed to sync', 'error'],
    ['I0318 09:41:27.302114    2231 controller.go:114] synced', 'info'],
    ['W0318 09:41:27.302114    2231 reflector.go:324] watch closed', 'warn'],
    ['error: casting `i32` to `f32` may cause a loss of precision', 'error'],
    ['warning[E0133]: use of unsafe function', 'warn'],
    ['FATAL: password authentication failed for user "app"', 'fatal'],
    ['panic: runtime error: index out of range [3] with length 3', 'fatal'],
    ['java.lang.IllegalStateException: pool exhausted', 'error'],
    ['ValueError: invalid literal for int() with base 10', 'error'],
    ['Traceback (most recent call last):', 'error'],
    ['Exception in thread "main" java.lang.OutOfMemoryError: Java heap space', 'error'],
    ['Process completed with exit code 137.', 'error'],
    ['ERROR: Job failed: exit status 2', 'error'],
    ['INFO job finished, exit_code=3', 'error'],
    ['LOG_LEVEL=warn msg="disk at 91%"', 'warn'],
    ['step done, Return_Code: 2', 'error'],
    ['Severity_Text=Fatal component=db', 'fatal'],
    ['ALERTS{alertname="KubePodCrashLooping", alertstate="firing", severity="warning"} 1', 'warn'],
    ['[FIRING:1] DiskWillFillIn4Hours instance=db-7', 'warn'],
    ['+  2024-03-18 ERROR inside a diff hunk', 'error'],
    ['\u001b[32m2025-08-08 09:00:13.414 INFO\u001b[0m completion done', 'info'],
    ['\u001b_bk;t=1725840899118\u0007\u001b[31mERROR\u001b[0m pull failed', 'error'],
    ['2024-03-18 ERROR pool drained\r', 'error'],
    [
      '66.249.66.194 - - [22/Jan/2019:03:56:23 +0330] "GET /product/81900 HTTP/1.1" 404 32278',
      'warn',
    ],
    [
      '10.0.0.7 - - [22/Jan/2019:03:56:23 +0330] "POST /pay HTTP/2.0" 503 0 "-" "curl/8.0"',
      'error',
    ],
    ['10.0.0.7 - - [t] "GET / HTTP/1.1" 499\r', 'warn'],
    ['2024-03-18 INFO "GET /health HTTP/1.1" 500 12', 'info'],
  ])('%s → %s', (line, expected) => {
    expect(levelName(line)).toBe(expected);
  });

  it.each([
    'No error occurred while syncing the ledger.',
    'Error handling is documented in the guide.',
    'the water tank is full',
    'exit code 0',
    'Process exited with status 0',
    'E:\\data\\backups is mounted',
    'Q: what does this do?',
    '3 × 4 = 12',
    'size: 1920 × 1080',
    '✖',
    'warning signs were ignored in the report',
    'Dec 10 06:55:46 LabSZ sshd[24200]: Invalid user webmaster from 173.234.31.186',
    '',
    '    at com.example.Service.call(Service.java:42)',
    '10.0.0.7 - - [22/Jan/2019:03:56:23 +0330] "GET /cart HTTP/1.1" 200 5667',
    '10.0.0.7 - - [t] "GET /old HTTP/1.1" 301 0',
    '10.0.0.7 - - [t] "GET /x HTTP/1.1" 4040 0',
    'see HTTP/1.1 404 for details',
    'GET /x HTTP/1.1" 404x',
  ])('no level in %j', (line) => {
    expect(levelName(line)).toBe('none');
  });

  it('interns values of a level field that are not known words, as rare or common as they are', () => {
    const raw: RawLevels = new Map();
    expect(levelName('{"level":30,"msg":"request completed"}', raw)).toBe('raw:30');
    expect(levelName('{"level":50,"msg":"request failed"}', raw)).toBe('raw:50');
    expect(levelName('{"level":30,"msg":"again"}', raw)).toBe('raw:30');
    expect(raw.size).toBe(2);
  });

  it('tells the same level stated two ways apart, and the same way alike', () => {
    const raw: RawLevels = new Map();
    const a = detect('error: one', 0, 10, raw);
    const b = detect('error: two', 0, 10, raw);
    const c = detect('level=error two', 0, 15, raw);
    expect(a).toBe(b);
    expect(levelOf(a)).toBe(levelOf(c));
    expect(a).not.toBe(c);
  });

  it('looks only at the line it is given, within a bounded window', () => {
    const text = 'INFO first\nERROR second';
    expect(levelName(text.slice(0, 10))).toBe('info');
    expect(levelOf(detect(text, 11, text.length, new Map()))).toBe(5);
    const far = `${'x'.repeat(LEVEL_WINDOW)} ERROR late`;
    expect(levelName(far)).toBe('none');
  });

  it('never throws and returns a known level, a raw id or none on any input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (line) => {
        const raw: RawLevels = new Map();
        const level = levelOf(detect(line, 0, line.length, raw));
        expect(level === NO_LEVEL || (level >= 0 && level < LEVEL_NAMES.length + raw.size)).toBe(
          true,
        );
      }),
      { numRuns: 2000 },
    );
  });
});

describe('isContinuationLine', () => {
  it('takes indented lines and "Caused by:" as continuing the event above', () => {
    for (const line of [
      '    at com.example.Service.call(Service.java:42)',
      '\tat java.base/java.lang.Thread.run(Thread.java:833)',
      '  File "app.py", line 3, in <module>',
      '  --> tests/ui/cast.rs:23:5',
      'Caused by: java.net.SocketTimeoutException: Read timed out',
    ]) {
      expect(continues(line)).toBe(true);
    }
    for (const line of ['ERROR top', '   ', '', 'plain']) {
      expect(continues(line)).toBe(false);
    }
  });
});
