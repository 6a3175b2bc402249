import { hex, pick, seededRandom } from './seeded-random.js';

/** What the generated diff hides. */
export interface DiffNeedle {
  file: string;
  removed: string;
  added: string;
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
  const needleFile = 'deploy/payments/values.yaml';
  const needleIndex = Math.floor(files * 0.7);
  const parts: string[] = [];
  for (let f = 0; f < files; f++) {
    if (f === needleIndex) {
      parts.push(
        `diff --git a/${needleFile} b/${needleFile}`,
        `index ${hex(random, 7)}..${hex(random, 7)} 100644`,
        `--- a/${needleFile}`,
        `+++ b/${needleFile}`,
        '@@ -12,7 +12,7 @@ payments:',
        '   replicas: 6',
        '   database:',
        '     host: payments-db.shop.svc',
        '-    poolMax: 50',
        '+    poolMax: 5',
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
  return {
    text: `${parts.join('\n')}\n`,
    needle: { file: needleFile, removed: 'poolMax: 50', added: 'poolMax: 5' },
  };
}
