import { assertSize } from './assert-size.js';

/** Bytes per token used for estimates: 150 000 tokens ≈ 525 KB, as seed 002 §5.2 states. */
export const BYTES_PER_TOKEN = 3.5;

/** A provider-independent token estimate from UTF-8 bytes (an integer ≥ 0). */
export function estimateTokens(bytes: number): number {
  assertSize(bytes, 'bytes');
  return Math.ceil(bytes / BYTES_PER_TOKEN);
}
