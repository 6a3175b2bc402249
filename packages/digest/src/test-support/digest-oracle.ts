import { type JsonValue, LosslessNumber } from '@compaction/core';
import type { DigestCaps } from '../digest-settings.js';

function countCodePoints(text: string): number {
  return [...text].length;
}

function isObject(value: unknown): value is Record<string, JsonValue> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !LosslessNumber.isInstance(value)
  );
}

/**
 * Checks `digest` against the specification of a digest of `source`, written independently of
 * the implementation (recursive, for test-sized values). Returns the first mismatch, or
 * undefined. Both values must come from `parseJsonLossless`.
 */
export function digestMismatch(
  source: JsonValue,
  digest: JsonValue,
  caps: DigestCaps,
  path = '$',
  depth = 1,
): string | undefined {
  if (Array.isArray(source)) {
    if (depth > caps.maxDepth && source.length > 0) {
      return digest === `…(array of ${source.length})`
        ? undefined
        : `${path}: expected depth descriptor`;
    }
    if (!Array.isArray(digest)) return `${path}: expected an array`;
    const kept = Math.min(source.length, caps.arraySample);
    const expectedLength = kept + (source.length > kept ? 1 : 0);
    if (digest.length !== expectedLength)
      return `${path}: length ${digest.length} ≠ ${expectedLength}`;
    if (
      source.length > kept &&
      digest[kept] !== `…${source.length - kept} more of ${source.length}`
    ) {
      return `${path}: bad length sentinel ${JSON.stringify(digest[kept])}`;
    }
    for (let i = 0; i < kept; i++) {
      const mismatch = digestMismatch(source[i]!, digest[i]!, caps, `${path}[${i}]`, depth + 1);
      if (mismatch) return mismatch;
    }
    return undefined;
  }
  if (isObject(source)) {
    const keys = Object.keys(source);
    if (depth > caps.maxDepth && keys.length > 0) {
      const expected = `…(object of ${keys.length} key${keys.length === 1 ? '' : 's'})`;
      return digest === expected ? undefined : `${path}: expected depth descriptor`;
    }
    if (!isObject(digest)) return `${path}: expected an object`;
    let expectedKeys = keys;
    if (keys.length > caps.maxKeys) {
      expectedKeys = [...keys].sort().slice(0, caps.maxKeys);
    }
    const digestKeys = Object.keys(digest);
    const extra = digestKeys.filter((key) => !expectedKeys.includes(key));
    for (const key of expectedKeys) {
      if (!Object.hasOwn(digest, key)) return `${path}: key ${JSON.stringify(key)} missing`;
    }
    if (keys.length > caps.maxKeys) {
      if (extra.length !== 1 || !/^…+$/.test(extra[0]!))
        return `${path}: expected one sentinel key`;
      const sentinel = `…${keys.length - caps.maxKeys} more of ${keys.length} keys`;
      if (digest[extra[0]!] !== sentinel) return `${path}: bad key sentinel`;
    } else if (extra.length > 0) {
      return `${path}: unexpected keys ${extra.join(',')}`;
    }
    for (const key of expectedKeys) {
      const mismatch = digestMismatch(
        source[key]!,
        digest[key]!,
        caps,
        `${path}.${key}`,
        depth + 1,
      );
      if (mismatch) return mismatch;
    }
    return undefined;
  }
  if (typeof source === 'string') {
    const chars = countCodePoints(source);
    const expected = chars > caps.scalarMax ? `…(${chars} chars)` : source;
    return digest === expected ? undefined : `${path}: string ${JSON.stringify(digest)}`;
  }
  if (typeof source === 'number' || LosslessNumber.isInstance(source)) {
    return String(source) === String(digest) && typeof digest !== 'string'
      ? undefined
      : `${path}: number ${String(digest)} ≠ ${String(source)}`;
  }
  return source === digest ? undefined : `${path}: ${String(digest)} ≠ ${String(source)}`;
}
