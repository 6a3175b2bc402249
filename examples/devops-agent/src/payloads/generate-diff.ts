import { hex, pick, seededRandom } from './seeded-random.js';

/** What the generated diff hides. */
export interface DiffNeedle {
  file: string;
  /** The setting before the change. */
  removed: string;
  /** The setting after the change. */
  added: string;
  /** The removed line as the diff writes it. */
  removedLine: string;
  /** The added line as the diff writes it. */
  addedLine: string;
}

const WORDS = [
  'order',
  'cart',
  'price',
  'tax',
  'currency',
  'customer',
  'shipment',
  'refund',
  'ledger',
  'invoice',
  'discount',
  'inventory',
];

function identifier(random: () => number): string {
  const a = pick(random, WORDS);
  const b = pick(random, WORDS);
  return `${a}${b[0]!.toUpperCase()}${b.slice(1)}`;
}

/**
 * A large unified diff (about 400 KB over 60 files) of a routine refactor, with one config hunk
 * that drops the payments database pool from 50 to 5 connections.
 */
export function generateDiff(options: { files?: number; seed?: number } = {}): {
  text: string;
  needle: DiffNeedle;
} {
  const files = options.files ?? 60;
  const random = seededRandom(options.seed ?? 23);
  const needle: DiffNeedle = {
    file: 'deploy/payments/values.yaml',
    removed: 'poolMax: 50',
    added: 'poolMax: 5',
    removedLine: '-    poolMax: 50',
    addedLine: '+    poolMax: 5',
  };
  const needleIndex = Math.floor(files * 0.7);
  const parts: string[] = [];
  for (let f = 0; f < files; f++) {
    if (f === needleIndex) {
      parts.push(
        `diff --git a/${needle.file} b/${needle.file}`,
        `index ${hex(random, 7)}..${hex(random, 7)} 100644`,
        `--- a/${needle.file}`,
        `+++ b/${needle.file}`,
        '@@ -12,7 +12,7 @@ payments:',
        '   replicas: 6',
        '   database:',
        '     host: payments-db.shop.svc',
        needle.removedLine,
        needle.addedLine,
        '     poolTimeoutSeconds: 2',
        '   resources:',
        '     limits:',
      );
      continue;
    }
    const path = `services/${pick(random, WORDS)}/src/${identifier(random)}.ts`;
    parts.push(
      `diff --git a/${path} b/${path}`,
      `index ${hex(random, 7)}..${hex(random, 7)} 100644`,
      `--- a/${path}`,
      `+++ b/${path}`,
    );
    const hunks = 8 + Math.floor(random() * 8);
    let line = 10;
    for (let h = 0; h < hunks; h++) {
      line += 20 + Math.floor(random() * 40);
      parts.push(`@@ -${line},9 +${line},9 @@ export function ${identifier(random)}() {`);
      for (let c = 0; c < 3; c++)
        parts.push(
          `   const ${identifier(random)} = await ${identifier(random)}(${identifier(random)});`,
        );
      const name = identifier(random);
      parts.push(`-  return ${name}.map((item) => item.${pick(random, WORDS)});`);
      parts.push(`+  return ${name}.map((entry) => entry.${pick(random, WORDS)});`);
      for (let c = 0; c < 3; c++)
        parts.push(`   logger.debug('${identifier(random)}', { ${identifier(random)} });`);
    }
  }
  return { text: `${parts.join('\n')}\n`, needle };
}
