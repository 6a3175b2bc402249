import {
  contentDigest,
  type ProcessedResult,
  type ResultTrimMetadata,
  trailingDisclosureNotes,
  utf8ByteLength,
} from '@compaction/core';

/**
 * Version of the cached envelope; entries of any other version are misses. Version 2 records
 * the input's digest and size and, with a shared secret, an HMAC over the whole entry.
 */
export const DISTILL_CACHE_ENVELOPE_VERSION = 2;

/** Everything a cached distillation depends on. */
export interface DistillCacheKeyInput {
  /** SHA-256 of the result, hex (`distillInputDigest`). */
  resultDigest: string;
  /** The step's task (the instruction). */
  stepTask?: string | undefined;
  userQuery?: string | undefined;
  /** The output budget in bytes. */
  maxBytes: number;
  /**
   * Config that changes what the model sees or says: prompt version, the route fingerprint
   * (provider order, resolved models, endpoints), sizes, routing, preserve keys, per-call
   * overrides. Never a secret.
   */
  salt: Readonly<Record<string, unknown>>;
}

// Hashes go through Web Crypto (`crypto.subtle`), which Node.js 20+, browsers and edge runtimes
// all provide, so the distiller bundles without `node:crypto`.

/** The hex SHA-256 of a result: the cache key's input part and the envelope's input check. */
export function distillInputDigest(result: string): Promise<string> {
  return contentDigest(result);
}

/** A hex SHA-256 over every input, each length-prefixed so no two inputs can collide by concatenation. */
export function distillCacheKey(input: DistillCacheKeyInput): Promise<string> {
  const parts = [
    `v${DISTILL_CACHE_ENVELOPE_VERSION}`,
    JSON.stringify(Object.entries(input.salt).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    String(input.maxBytes),
    input.userQuery ?? '\u0000',
    input.stepTask ?? '\u0000',
    input.resultDigest,
  ];
  return contentDigest(parts.map((part) => `${utf8ByteLength(part)}:${part}`).join(''));
}

/** The input an envelope must have been made from. */
export interface DistillCacheInput {
  /** `distillInputDigest(result)`. */
  digest: string;
  /** UTF-8 bytes of the result. */
  bytes: number;
}

interface Envelope {
  v: number;
  input: DistillCacheInput;
  text: string;
  metadata: ResultTrimMetadata;
  mac?: string;
}

const encoder = new TextEncoder();

async function mac(secret: string, key: string, envelope: Omit<Envelope, 'mac'>): Promise<string> {
  const hmacKey = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const signed = new Uint8Array(
    await crypto.subtle.sign(
      'HMAC',
      hmacKey,
      encoder.encode(
        JSON.stringify([key, envelope.v, envelope.input, envelope.text, envelope.metadata]),
      ),
    ),
  );
  let hex = '';
  for (const byte of signed) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/**
 * The cached value: the output and its trim metadata (so a hit reads like a fresh run), the
 * digest and size of the input it was made from, and, when `secret` is given, an HMAC-SHA256
 * over all of it and the key.
 */
export async function encodeDistillCacheEntry(
  processed: ProcessedResult,
  input: DistillCacheInput,
  options: { key: string; secret?: string | undefined },
): Promise<string> {
  const envelope: Omit<Envelope, 'mac'> = {
    v: DISTILL_CACHE_ENVELOPE_VERSION,
    input: { digest: input.digest, bytes: input.bytes },
    text: processed.text,
    metadata: processed.metadata,
  };
  return JSON.stringify(
    options.secret
      ? { ...envelope, mac: await mac(options.secret, options.key, envelope) }
      : envelope,
  );
}

/** What a cached envelope is checked against. */
export interface DecodeDistillCacheOptions {
  /** The cache key it was read under (covered by the HMAC). */
  key: string;
  /** The output budget of this request. */
  maxBytes: number;
  /** The input at hand: the envelope must record the same digest and size. */
  input: DistillCacheInput;
  /** The shared secret; when set, an entry without a valid HMAC is a miss. */
  secret?: string | undefined;
}

const NUMBER_FIELDS = ['originalBytes', 'outputBytes'] as const;

/** Compares in time that depends on the length only, so a forged MAC is not found by timing. */
function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * The processed result in `value`, or undefined (a miss) unless it is a current envelope made
 * from the input at hand, for this budget, shaped like a distillation (content lost, the
 * `[distilled: …]` note first among its closing notes, sizes that match its text) and, with a
 * secret, carrying a valid HMAC.
 */
export async function decodeDistillCacheEntry(
  value: string,
  options: DecodeDistillCacheOptions,
): Promise<ProcessedResult | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const envelope = parsed as Partial<Record<keyof Envelope, unknown>>;
  const { v, input, text, metadata } = envelope;
  if (v !== DISTILL_CACHE_ENVELOPE_VERSION || typeof text !== 'string') return undefined;
  if (typeof input !== 'object' || input === null) return undefined;
  const recorded = input as Partial<DistillCacheInput>;
  if (recorded.digest !== options.input.digest || recorded.bytes !== options.input.bytes) {
    return undefined;
  }
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const meta = metadata as Record<string, unknown>;
  if (NUMBER_FIELDS.some((field) => typeof meta[field] !== 'number')) return undefined;
  if (meta.originalBytes !== options.input.bytes) return undefined;
  // Only distillations are cached, and a distillation is never the whole input.
  if (meta.contentLost !== true) return undefined;
  if (trailingDisclosureNotes(text)[0]?.kind !== 'distilled') return undefined;
  const bytes = utf8ByteLength(text);
  if (bytes > options.maxBytes || meta.outputBytes !== bytes) return undefined;
  if (options.secret) {
    if (typeof envelope.mac !== 'string') return undefined;
    const expected = await mac(options.secret, options.key, {
      v,
      input: { digest: recorded.digest, bytes: recorded.bytes },
      text,
      metadata: meta as unknown as ResultTrimMetadata,
    });
    if (!sameHex(envelope.mac, expected)) return undefined;
  }
  return { text, metadata: meta as unknown as ResultTrimMetadata };
}
