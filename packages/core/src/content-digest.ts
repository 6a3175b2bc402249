const encoder = new TextEncoder();

/**
 * Lowercase hex SHA-256 of `text`'s UTF-8 bytes through Web Crypto (`crypto.subtle`), which
 * Node ≥ 20, browsers and edge runtimes all provide, so the middleware bundles without `node:`
 * modules.
 */
export async function contentDigest(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
