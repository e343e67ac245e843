/**
 * Shared set-up of the identity.jwt tests: an identity provider's key set served by a real loopback
 * HTTP server, tokens signed with keys generated here (jose), a gateway with the plugin, and helpers
 * for the organisation's JWT settings and for calls made as a JWT caller.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import type { PluginEntry } from '../../../../core/index.js';
import JwtIdentityPlugin from '../../../../plugins/identity/jwt/index.js';
import WorkspacesPlugin from '../../../../plugins/admin/workspaces/index.js';
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import { call, CHAT_BODY, jsonReply, startGateway, type JsonReply, type TestGateway } from '../../../helpers/gateway.js';

export const ISSUER = 'https://idp.example.test';
export const AUDIENCE = 'gw-gateway';
export const SETTINGS_PATH = '/v1/organisation/sso/jwt';

export interface SigningKey {
  kid: string;
  alg: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

export async function signingKey(kid: string, alg = 'RS256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateKey, jwk };
}

/** A key server on 127.0.0.1: answers GET /jwks.json with the keys it is given; counts the fetches. */
export interface KeyServer {
  url: string;
  jwksUri: string;
  keys: JWK[];
  fetches: number;
  close(): Promise<void>;
}

export async function startKeyServer(keys: SigningKey[]): Promise<KeyServer> {
  const state = { keys: keys.map((k) => k.jwk), fetches: 0 };
  const server: Server = createServer((req, res) => {
    if (req.url !== '/jwks.json') {
      res.writeHead(404).end();
      return;
    }
    state.fetches++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: state.keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    jwksUri: `${url}/jwks.json`,
    get keys() { return state.keys; },
    set keys(value) { state.keys = value; },
    get fetches() { return state.fetches; },
    set fetches(value) { state.fetches = value; },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export interface TokenOptions {
  /** Default: the issuer and audience above, `exp` in 5 minutes. */
  claims?: JWTPayload & Record<string, unknown>;
  /** Claims removed from the defaults. */
  without?: string[];
  expiresIn?: string | number;
  notBefore?: string | number;
  header?: Record<string, unknown>;
}

export async function token(key: SigningKey, o: TokenOptions = {}): Promise<string> {
  const claims: Record<string, unknown> = { iss: ISSUER, aud: AUDIENCE, sub: 'user-1', email: 'ada@example.test', ...o.claims };
  for (const name of o.without ?? []) delete claims[name];
  const jwt = new SignJWT(claims as JWTPayload).setProtectedHeader({ alg: key.alg, kid: key.kid, ...o.header }).setIssuedAt();
  if (!(o.without ?? []).includes('exp')) jwt.setExpirationTime(o.expiresIn ?? '5m');
  if (o.notBefore !== undefined) jwt.setNotBefore(o.notBefore);
  return jwt.sign(key.privateKey);
}

/** An unsigned token (`alg: none`), as an attacker would send one. */
export function unsignedToken(claims: Record<string, unknown>): string {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ iss: ISSUER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 300, ...claims })}.`;
}

export function startJwtGateway(options: { jwt?: Record<string, unknown>; plugins?: PluginEntry[]; env?: Record<string, string> } = {}): Promise<TestGateway> {
  return startGateway({
    plugins: [WorkspacesPlugin, { use: JwtIdentityPlugin, options: { jwksCooldownMs: 0, ...options.jwt } }, ...(options.plugins ?? [])],
    env: options.env,
  });
}

export function putSettings(gw: TestGateway, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<JsonReply> {
  return call(gw, 'PUT', SETTINGS_PATH, body, headers);
}

export function settingsFor(keys: KeyServer, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { issuer: ISSUER, audience: AUDIENCE, jwks_uri: keys.jwksUri, ...extra };
}

/** A config whose provider credential is its own (the mock's test key), never the caller's. */
export function providerConfig(mock: MockOpenAI): Record<string, unknown> {
  return { provider: 'openai', api_key: 'sk-from-config', custom_host: `${mock.url}/v1` };
}

/** A chat completion sent with `Authorization: Bearer <bearer>` and no x-gw-api-key. */
export async function chatAs(gw: TestGateway, bearer: string, config: Record<string, unknown> | undefined, headers: Record<string, string> = {}): Promise<JsonReply> {
  const res = await fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${bearer}`,
      ...(config ? { 'x-gw-config': JSON.stringify(config) } : {}),
      ...headers,
    },
    body: JSON.stringify(CHAT_BODY),
  });
  return jsonReply(res);
}

/** Any request with `Authorization: Bearer <bearer>` and no x-gw-api-key. */
export async function callAs(gw: TestGateway, bearer: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonReply> {
  const res = await fetch(gw.url + path, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return jsonReply(res);
}
