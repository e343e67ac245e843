/**
 * The agent server's own credential: checked and sealed on write (SecretBox, bound to the server
 * id), opened on each call into the headers the gateway sends upstream. Opened secrets are kept
 * per server object (a changed server is a new object), so a call costs no decryption.
 */
import { Errors, type SecretBox } from '../../../core/index.js';
import type { AgentServer, AuthSecret } from './record.js';
import { MAX_AUTH_HEADERS, type AuthInput, type AuthType } from './schemas.js';

const sealContext = (id: string) => `agent-server:${id}`;

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;

/** Headers the proxy sets itself, or that would change how the request travels. */
const RESERVED = new Set([
  'host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect',
  'content-type', 'accept', 'a2a-version', 'a2a-extensions', 'x-a2a-extensions', 'proxy-authorization', 'proxy-connection',
]);

export interface SealedAuth {
  auth_type: AuthType;
  auth_secret: string | null;
  auth_header_names: string;
}

/**
 * The auth columns for `input`. A type given again without its secret keeps the stored one (a
 * GET → PUT round trip never sees the secret, so it cannot send it back).
 */
export function sealAuth(box: SecretBox, id: string, input: AuthInput, current?: AgentServer, open?: () => AuthSecret): SealedAuth {
  const keep = current !== undefined && current.authType === input.type ? open : undefined;
  if (input.type === 'none') {
    if (input.token !== undefined || input.headers !== undefined) throw Errors.invalidBody('auth', 'type "none" takes no token or headers');
    return { auth_type: 'none', auth_secret: null, auth_header_names: '[]' };
  }
  if (input.type === 'bearer') {
    if (input.headers !== undefined) throw Errors.invalidBody('auth.headers', 'is only allowed with type "headers"');
    const token = input.token ?? keep?.().token;
    if (token === undefined) throw Errors.invalidBody('auth.token', 'is required with type "bearer"');
    return { auth_type: 'bearer', auth_secret: box.encrypt(JSON.stringify({ token }), sealContext(id)), auth_header_names: '[]' };
  }
  if (input.token !== undefined) throw Errors.invalidBody('auth.token', 'is only allowed with type "bearer"');
  const headers = input.headers ?? keep?.().headers;
  if (headers === undefined || Object.keys(headers).length === 0) throw Errors.invalidBody('auth.headers', 'must name at least one header with type "headers"');
  const names = Object.keys(headers);
  if (names.length > MAX_AUTH_HEADERS) throw Errors.invalidBody('auth.headers', `must name at most ${MAX_AUTH_HEADERS} headers`);
  const seen = new Set<string>();
  const lower: Record<string, string> = {};
  for (const name of names) {
    if (!HEADER_NAME.test(name)) throw Errors.invalidBody('auth.headers', `"${name.slice(0, 128)}" is not a valid header name`);
    const key = name.toLowerCase();
    if (RESERVED.has(key) || key.startsWith('x-gw-')) throw Errors.invalidBody(`auth.headers.${name}`, 'is set by the gateway and cannot be configured');
    if (seen.has(key)) throw Errors.invalidBody(`auth.headers.${name}`, 'is named twice (header names are case-insensitive)');
    seen.add(key);
    lower[key] = headers[name]!;
  }
  return { auth_type: 'headers', auth_secret: box.encrypt(JSON.stringify({ headers: lower }), sealContext(id)), auth_header_names: JSON.stringify(Object.keys(lower)) };
}

/** Opens a server's sealed secret; a 500 naming the server (never the secret) when this gateway's key cannot. */
export function openAuth(box: SecretBox, server: AgentServer): AuthSecret {
  if (server.sealed === undefined) return {};
  try {
    return JSON.parse(box.decrypt(server.sealed, sealContext(server.id))) as AuthSecret;
  } catch {
    throw Errors.misconfigured(
      `agent server "${server.slug}" cannot be opened: its credential was sealed with another secret key; restore that key or store the auth again`,
      'agent_server_unusable',
    );
  }
}

/** The headers that authenticate the gateway to the agent, per server object. */
export class UpstreamAuth {
  readonly #opened = new WeakMap<AgentServer, Readonly<Record<string, string>>>();

  constructor(private readonly box: SecretBox) {}

  headers(server: AgentServer): Readonly<Record<string, string>> {
    let known = this.#opened.get(server);
    if (!known) {
      const secret = openAuth(this.box, server);
      known = Object.freeze(server.authType === 'bearer' ? { authorization: `Bearer ${secret.token}` } : { ...secret.headers });
      this.#opened.set(server, known);
    }
    return known;
  }
}
