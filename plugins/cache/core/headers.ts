/** The request headers of the cache (INTERFACE.md): `x-gw-cache-namespace`, `x-gw-cache-force-refresh`. */
import { Errors, type HeaderMap } from '../../../core/index.js';

export const NAMESPACE_HEADER = 'x-gw-cache-namespace';
export const REFRESH_HEADER = 'x-gw-cache-force-refresh';
export const STATUS_HEADER = 'x-gw-cache-status';

/** Our cap: a namespace is a label, not a payload. */
export const MAX_NAMESPACE_LENGTH = 256;

export interface CacheHeaders {
  namespace: string | undefined;
  refresh: boolean;
}

/** Reads and checks the cache headers; throws a 400 naming the header when one is malformed. */
export function readCacheHeaders(headers: HeaderMap): CacheHeaders {
  const namespace = headers[NAMESPACE_HEADER];
  if (namespace !== undefined && (namespace.length === 0 || namespace.length > MAX_NAMESPACE_LENGTH)) {
    throw Errors.invalidHeader(NAMESPACE_HEADER, `must be 1 to ${MAX_NAMESPACE_LENGTH} characters`);
  }
  const refresh = headers[REFRESH_HEADER]?.trim().toLowerCase();
  if (refresh !== undefined && refresh !== 'true' && refresh !== 'false') {
    throw Errors.invalidHeader(REFRESH_HEADER, 'must be true or false');
  }
  return { namespace, refresh: refresh === 'true' };
}
