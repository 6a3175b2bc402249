/** One provider's part of a route fingerprint. */
export interface RouteParts {
  /** Provider name, such as `openai`. */
  provider: string;
  /** The endpoint the SDK calls; credentials, query and fragment are dropped. */
  baseURL: string | undefined;
  /** The concrete model the request's alias resolves to. */
  model: string;
  /** Other settings that change the request on the wire, such as the token-limit field. */
  options?: Readonly<Record<string, string | number | boolean | undefined>>;
}

function endpoint(baseURL: string | undefined): string {
  if (!baseURL) return '';
  try {
    const url = new URL(baseURL);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.toString().replace(/\/+$/, '');
  } catch {
    return '(unparsable endpoint)';
  }
}

/**
 * A secret-free, deterministic fingerprint of where a request goes: `provider@endpoint/model`
 * plus sorted options. No key or token is ever part of it.
 */
export function routeFingerprint(parts: RouteParts): string {
  const options = Object.entries(parts.options ?? {})
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${String(value)}`);
  return `${parts.provider}@${endpoint(parts.baseURL)}#${parts.model}${options.length ? `?${options.join('&')}` : ''}`;
}
