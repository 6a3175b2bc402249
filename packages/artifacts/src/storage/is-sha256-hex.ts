/** True when `value` is a SHA-256 in 64 lowercase hex digits, the form every digest here takes. */
export function isSha256Hex(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}
