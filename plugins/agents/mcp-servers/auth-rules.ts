/**
 * The rules of `auth`, `url` and `secret_mappings`: which fields each auth type takes, which header
 * names may be set (none the gateway or the MCP transport owns), where a secret mapping may point.
 * Every refusal is a 400 naming the field and the rule.
 */
import { Errors } from '../../../core/index.js';
import type { McpAuthType } from './contract.js';
import type { AuthMasks, PublicAuth, SecretAuth } from './record.js';
import { MAX_HEADERS, type AuthInput, type SecretMappingInput } from './schemas.js';

/** Fields each type takes besides `type`. */
const FIELDS: Readonly<Record<McpAuthType, readonly (keyof AuthInput)[]>> = {
  none: [],
  user_bearer: [],
  bearer: ['token'],
  headers: ['headers'],
  oauth2_client_credentials: ['token_url', 'client_id', 'client_secret', 'scope', 'audience', 'token_endpoint_auth_method'],
};

/** Where a secret mapping may point, per type. */
const MAPPABLE: Readonly<Record<McpAuthType, string>> = {
  none: 'nothing (auth type "none" holds no secret)',
  user_bearer: 'nothing (auth type "user_bearer" holds no secret: each caller brings its own token)',
  bearer: '"auth.token"',
  headers: '"auth.headers.<name>"',
  oauth2_client_credentials: '"auth.client_secret"',
};

/** Hop-by-hop headers (RFC 9110 §7.6.1), and those the transport or the MCP session owns. */
const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'trailers',
  'transfer-encoding', 'upgrade', 'host', 'content-length', 'content-type', 'accept', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id',
]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
/** Visible ASCII, spaces and tabs; never CR, LF or NUL (no header injection). */
export const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Which secrets a server holds (from the values given, or the masks stored). */
export interface SecretPresence {
  token: boolean;
  client_secret: boolean;
  headers: readonly string[];
}

export function presenceOf(secret: SecretAuth | AuthMasks): SecretPresence {
  return { token: secret.token !== undefined, client_secret: secret.client_secret !== undefined, headers: Object.keys(secret.headers ?? {}) };
}

/** A header name as it may be set on an upstream call, lower-cased; 400 at `path` otherwise. */
export function headerName(name: string, path: string): string {
  if (!TOKEN.test(name)) throw Errors.invalidBody(path, 'must be an HTTP header name (1 to 128 token characters)');
  const lower = name.toLowerCase();
  if (RESERVED_HEADERS.has(lower)) throw Errors.invalidBody(path, `"${name}" cannot be set: the gateway or the MCP transport sets it`);
  return lower;
}

/** `url`: http(s), no user name or password in it. */
export function checkUrl(url: string, field: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw Errors.invalidBody(field, 'must be an http(s) URL');
  }
  if (parsed.username !== '' || parsed.password !== '') throw Errors.invalidBody(field, 'must not carry credentials (user:password@); use auth');
}

/**
 * Splits `auth` into its public and secret parts. A secret sent back as the mask we answered (a GET →
 * edit → PUT round trip) keeps the stored one: `stored` opens it, `masks` are what was shown.
 */
export function splitAuth(input: AuthInput, masks: AuthMasks | undefined, stored: () => SecretAuth): { public: PublicAuth; secret: SecretAuth } {
  const allowed = FIELDS[input.type];
  for (const field of Object.keys(input) as (keyof AuthInput)[]) {
    if (field !== 'type' && !allowed.includes(field)) throw Errors.invalidBody(`auth.${field}`, `is not a field of auth type "${input.type}"`);
  }
  const pub: PublicAuth = { type: input.type };
  const secret: SecretAuth = {};
  const kept = (given: string, shown: string | undefined, keep: () => string | undefined) => (shown !== undefined && given === shown ? keep() : given);
  if (input.token !== undefined) secret.token = kept(input.token, masks?.token, () => stored().token);
  if (input.client_secret !== undefined) secret.client_secret = kept(input.client_secret, masks?.client_secret, () => stored().client_secret);
  if (input.headers !== undefined) {
    const names = Object.keys(input.headers);
    if (names.length > MAX_HEADERS) throw Errors.invalidBody('auth.headers', `must hold at most ${MAX_HEADERS} headers`);
    const headers: Record<string, string> = {};
    for (const name of names) {
      const lower = headerName(name, `auth.headers.${name}`);
      if (lower in headers) throw Errors.invalidBody(`auth.headers.${name}`, 'names a header twice (names are case-insensitive)');
      const value = input.headers[name]!;
      if (!FIELD_VALUE.test(value)) throw Errors.invalidBody(`auth.headers.${name}`, 'must not contain CR, LF or other control characters');
      headers[lower] = kept(value, masks?.headers?.[lower], () => stored().headers?.[lower]) ?? value;
    }
    secret.headers = headers;
  }
  if (input.token_url !== undefined) {
    checkUrl(input.token_url, 'auth.token_url');
    pub.token_url = input.token_url;
  }
  if (input.client_id !== undefined) pub.client_id = input.client_id;
  if (input.scope !== undefined) pub.scope = input.scope;
  if (input.audience !== undefined) pub.audience = input.audience;
  if (input.token_endpoint_auth_method !== undefined) pub.token_endpoint_auth_method = input.token_endpoint_auth_method;
  if (secret.token !== undefined && !FIELD_VALUE.test(secret.token)) throw Errors.invalidBody('auth.token', 'must not contain CR, LF or other control characters');
  return { public: pub, secret };
}

/** The field a mapping fills: `token`, `client_secret` or `headers.<lower-case name>`; 400 when the type has no such field. */
export function mappedField(type: McpAuthType, target: string, path: string): string {
  if (type === 'bearer' && target === 'auth.token') return 'token';
  if (type === 'oauth2_client_credentials' && target === 'auth.client_secret') return 'client_secret';
  if (type === 'headers' && target.startsWith('auth.headers.')) return `headers.${headerName(target.slice('auth.headers.'.length), path)}`;
  throw Errors.invalidBody(path, `must be ${MAPPABLE[type]} for auth type "${type}"`);
}

/**
 * The auth a server ends up with is complete (each required secret given or mapped), and its
 * mappings point at fields of its type and at references the gateway may read.
 */
export function checkAuth(pub: PublicAuth, present: SecretPresence, mappings: readonly SecretMappingInput[], envPrefix: string | undefined): void {
  const mapped = new Set<string>();
  mappings.forEach((m, i) => {
    const field = mappedField(pub.type, m.target_field, `secret_mappings.${i}.target_field`);
    if (mapped.has(field)) throw Errors.invalidBody(`secret_mappings.${i}.target_field`, `maps ${m.target_field} twice`);
    mapped.add(field);
    if (envPrefix !== undefined && !(m.secret_reference.startsWith(envPrefix) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(m.secret_reference))) {
      throw Errors.invalidBody(`secret_mappings.${i}.secret_reference`, `must name an environment variable starting with ${envPrefix}`);
    }
  });
  const has = (field: 'token' | 'client_secret') => present[field] || mapped.has(field);
  switch (pub.type) {
    case 'bearer':
      if (!has('token')) throw Errors.invalidBody('auth.token', 'is required for auth type "bearer" (or map it with secret_mappings)');
      break;
    case 'headers':
      if (present.headers.length === 0 && ![...mapped].some((f) => f.startsWith('headers.'))) {
        throw Errors.invalidBody('auth.headers', 'must name at least one header for auth type "headers" (or map one with secret_mappings)');
      }
      break;
    case 'oauth2_client_credentials':
      if (pub.token_url === undefined) throw Errors.invalidBody('auth.token_url', 'is required for auth type "oauth2_client_credentials"');
      if (pub.client_id === undefined) throw Errors.invalidBody('auth.client_id', 'is required for auth type "oauth2_client_credentials"');
      if (!has('client_secret')) throw Errors.invalidBody('auth.client_secret', 'is required for auth type "oauth2_client_credentials" (or map it with secret_mappings)');
      break;
    default:
      break;
  }
}
