import { createHash } from 'node:crypto';

/** Lowercase hex SHA-256 of `data`; strings are hashed as their UTF-8 bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
