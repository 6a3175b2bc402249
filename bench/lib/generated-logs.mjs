// Generated logs of a given size for the trimmer's throughput bench, in the shapes agents read:
// a service's plain log (timestamps, levels, a dozen statement shapes with variable parts, a
// rare error with its stack trace), the same service's JSON lines (NDJSON), and a coloured CI
// log (terminal escapes on most lines, test results, a failing test). Deterministic.
import { hexOf, random } from './lists.mjs';

const PATHS = ['/v1/orders', '/v1/cart', '/v1/search', '/v1/accounts', '/healthz'];
const WORKERS = 8;

function stamp(i) {
  return new Date(Date.UTC(2026, 2, 1, 6) + i * 37).toISOString();
}

/** One event of the plain service log: one line, or a few for an error with its trace. */
function serviceEvent(next, i) {
  const at = stamp(i);
  const worker = `[http-worker-${i % WORKERS}]`;
  const roll = next();
  if (roll < 0.0005) {
    return [
      `${at} ERROR ${worker} request ${hexOf(next, 12)} failed: upstream connect error: connection refused`,
      'java.net.ConnectException: Connection refused',
      '\tat java.base/sun.nio.ch.Net.connect0(Native Method)',
      '\tat java.base/sun.nio.ch.Net.connect(Net.java:579)',
      '\tat com.acme.orders.Client.call(Client.java:212)',
      '\tat com.acme.orders.Handler.handle(Handler.java:88)',
    ].join('\n');
  }
  if (roll < 0.01) {
    return `${at} WARN  ${worker} slow query on orders_${i % 7}: ${200 + Math.floor(next() * 4000)} ms (limit 200 ms)`;
  }
  if (roll < 0.12) {
    return `${at} DEBUG ${worker} cache ${next() < 0.8 ? 'hit' : 'miss'} key=order:${Math.floor(next() * 1e6)}`;
  }
  if (roll < 0.14) {
    return `${at} INFO  [scheduler] heartbeat: ok (${Math.floor(next() * 64)} jobs queued)`;
  }
  const path = PATHS[Math.floor(next() * PATHS.length)];
  const id = Math.floor(next() * 100_000);
  const ms = 3 + Math.floor(next() * 60);
  return next() < 0.7
    ? `${at} INFO  ${worker} GET ${path}/${id} 200 ${ms}ms user=u-${hexOf(next, 6)}`
    : `${at} INFO  ${worker} POST ${path} 201 ${ms}ms bytes=${Math.floor(next() * 9000)} trace=${hexOf(next, 16)}`;
}

/** One line of the same service logging JSON (pino's fields). */
function jsonEvent(next, i) {
  const roll = next();
  const level = roll < 0.0005 ? 50 : roll < 0.01 ? 40 : 30;
  const status = level === 50 ? 502 : 200;
  const record = {
    level,
    time: Date.UTC(2026, 2, 1, 6) + i * 37,
    pid: 1,
    hostname: `orders-${hexOf(next, 9)}`.slice(0, 16),
    reqId: `req-${i.toString(36)}`,
    req: { method: next() < 0.7 ? 'GET' : 'POST', url: PATHS[i % PATHS.length] },
    res: { statusCode: status },
    responseTime: level === 50 ? 30_000 : 3 + Math.floor(next() * 60),
    msg: level === 50 ? 'upstream connect error' : 'request completed',
  };
  return JSON.stringify(record);
}

const ESC = '\u001b';
const green = (text) => `${ESC}[32m${text}${ESC}[0m`;
const grey = (text) => `${ESC}[90m${text}${ESC}[0m`;
const red = (text) => `${ESC}[31m${text}${ESC}[0m`;

/** One event of a coloured CI log: a test result, a step, or a rare failure with its diff. */
function ciEvent(next, i) {
  const roll = next();
  const suite = `packages/${['core', 'api', 'web', 'cli'][i % 4]}/src/module-${i % 97}.test.ts`;
  if (roll < 0.0005) {
    return [
      `${red('✖')} ${suite} > handles retries ${grey(`(${Math.floor(next() * 900)} ms)`)}`,
      `    AssertionError: expected 3 to equal 2`,
      `      - Expected: 2`,
      `      + Received: 3`,
      `    ❯ ${suite}:${Math.floor(next() * 400)}:17`,
    ].join('\n');
  }
  if (roll < 0.05) return `${grey('$')} pnpm --filter ${hexOf(next, 6)} build`;
  if (roll < 0.08)
    return `${ESC}[33mnpm WARN${ESC}[0m deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported`;
  return `${green('✓')} ${suite} > case ${Math.floor(next() * 5000)} ${grey(`(${Math.floor(next() * 40)} ms)`)}`;
}

const SHAPES = { 'service log': serviceEvent, 'JSON lines': jsonEvent, 'coloured CI log': ciEvent };

/** The shapes `generatedLog` makes. */
export const LOG_SHAPES = Object.keys(SHAPES);

/** A log of `shape` (one of `LOG_SHAPES`) of about `bytes` UTF-8 bytes, whole lines. */
export function generatedLog(shape, bytes) {
  const event = SHAPES[shape];
  if (!event) throw new Error(`unknown log shape ${shape}`);
  const next = random((bytes % 1000) + 17);
  const lines = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = event(next, i);
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  return `${lines.join('\n')}\n`;
}
