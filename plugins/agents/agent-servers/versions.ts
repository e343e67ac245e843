/** The A2A headers a client may send and the gateway passes on (the protocol's, never the gateway's). */
import { Errors, type GatewayRequest } from '../../../core/index.js';

const VERSION = /^\d{1,3}\.\d{1,3}(?:\.\d{1,3})?$/;

/** `A2A-Version` (absent means 0.3 to an agent); a 400 for something that is not a version. */
export function requestedVersion(request: GatewayRequest): string | undefined {
  const value = request.headers['a2a-version'];
  if (value === undefined || value.trim() === '') return undefined;
  if (!VERSION.test(value.trim())) throw Errors.invalidHeader('a2a-version', 'must be a protocol version such as 0.3 or 1.0');
  return value.trim();
}

/** Extension headers of both versions (`A2A-Extensions`, v0.3 `X-A2A-Extensions`): comma lists of URIs. */
const EXTENSION_HEADERS = ['a2a-extensions', 'x-a2a-extensions'] as const;
const MAX_EXTENSIONS_LENGTH = 4096;

export function extensionHeaders(request: GatewayRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of EXTENSION_HEADERS) {
    const value = request.headers[name];
    if (value === undefined) continue;
    if (value.length > MAX_EXTENSIONS_LENGTH) throw Errors.invalidHeader(name, `must be at most ${MAX_EXTENSIONS_LENGTH} characters`);
    out[name] = value;
  }
  return out;
}
