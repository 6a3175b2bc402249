import { createHash } from 'node:crypto';
import type { ProcessedResult, ResultTrimMetadata } from '@compaction/core';
import { utf8ByteLength } from '@compaction/core';

/** Version of the cached envelope; entries of any other version are misses. */
export const DISTILL_CACHE_ENVELOPE_VERSION = 1;

/** Everything a cached distillation depends on. */
export interface DistillCacheKeyInput {
  result: string;
  /** The step's task (the instruction). */
  stepTask?: string | undefined;
  userQuery?: string | undefined;
  /** The output budget in bytes. */
  maxBytes: number;
  /** Config that changes what the model sees or says: prompt version, model, sizes, routing, preserve keys, per-call overrides. */
  salt: Readonly<Record<string, unknown>>;
}

/** A hex SHA-256 over every input, each length-prefixed so no two inputs can collide by concatenation. */
export function distillCacheKey(input: DistillCacheKeyInput): string {
  const hash = createHash('sha256');
  const part = (text: string) => {
    hash.update(`${Buffer.byteLength(text)}:`);
    hash.update(text);
  };
  part(`v${DISTILL_CACHE_ENVELOPE_VERSION}`);
  part(JSON.stringify(Object.entries(input.salt).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
  part(String(input.maxBytes));
  part(input.userQuery ?? '\u0000');
  part(input.stepTask ?? '\u0000');
  part(input.result);
  return hash.digest('hex');
}

/** The cached value: the output and its trim metadata, so a hit reads like a fresh run. */
export function encodeDistillCacheEntry(processed: ProcessedResult): string {
  return JSON.stringify({
    v: DISTILL_CACHE_ENVELOPE_VERSION,
    text: processed.text,
    metadata: processed.metadata,
  });
}

const NUMBER_FIELDS = ['originalBytes', 'outputBytes'] as const;

/** The processed result in `value`, or undefined when it is not a valid current envelope for `maxBytes`. */
export function decodeDistillCacheEntry(
  value: string,
  maxBytes: number,
): ProcessedResult | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { v, text, metadata } = parsed as { v?: unknown; text?: unknown; metadata?: unknown };
  if (v !== DISTILL_CACHE_ENVELOPE_VERSION || typeof text !== 'string') return undefined;
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const meta = metadata as Record<string, unknown>;
  if (typeof meta.contentLost !== 'boolean') return undefined;
  if (NUMBER_FIELDS.some((field) => typeof meta[field] !== 'number')) return undefined;
  const bytes = utf8ByteLength(text);
  if (bytes > maxBytes || meta.outputBytes !== bytes) return undefined;
  return { text, metadata: meta as unknown as ResultTrimMetadata };
}
