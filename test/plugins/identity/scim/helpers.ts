/**
 * A gateway with the control-plane plugins and identity.scim, and a client that speaks to it as an
 * identity provider does (Okta, Entra ID): `Authorization: Bearer <key>`, `application/scim+json`.
 */
import ApiKeyAuthPlugin from '../../../../plugins/security/api-key-auth/index.js';
import ApiKeysPlugin from '../../../../plugins/admin/api-keys/index.js';
import ScimPlugin from '../../../../plugins/identity/scim/index.js';
import SecretBoxPlugin from '../../../../plugins/security/secret-box/index.js';
import WorkspacesPlugin from '../../../../plugins/admin/workspaces/index.js';
import { jsonReply, startGateway, TEST_API_KEY, type JsonReply, type TestGateway } from '../../../helpers/gateway.js';

export const SCIM = '/v1/scim/v2';
export const SCIM_CONTENT_TYPE = 'application/scim+json';
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

export interface ScimClient {
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<JsonReply>;
  get(path: string): Promise<JsonReply>;
  post(path: string, body: unknown): Promise<JsonReply>;
  put(path: string, body: unknown): Promise<JsonReply>;
  patch(path: string, operations: unknown[]): Promise<JsonReply>;
  del(path: string): Promise<JsonReply>;
}

export interface ScimGateway {
  gw: TestGateway;
  /** The identity provider's client: a `scim.*` organisation-service key as a bearer token. */
  idp: ScimClient;
  scimKey: string;
  /** The bootstrap owner key, through x-gw-api-key (admin routes). */
  admin: ScimClient;
  /** A client with any headers (no key of its own). */
  bare: ScimClient;
  stop(): Promise<void>;
}

export function scimClient(base: string, auth: Record<string, string>): ScimClient {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': SCIM_CONTENT_TYPE }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return jsonReply(res);
  };
  return {
    call,
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body),
    put: (path, body) => call('PUT', path, body),
    patch: (path, operations) => call('PATCH', path, { schemas: [PATCH_SCHEMA], Operations: operations }),
    del: (path) => call('DELETE', path),
  };
}

export async function startScimGateway(env: Record<string, string> = {}): Promise<ScimGateway> {
  const gw = await startGateway({
    plugins: [
      SecretBoxPlugin,
      { use: ApiKeyAuthPlugin, options: { rotationCheckIntervalMs: 0 } },
      ApiKeysPlugin,
      { use: WorkspacesPlugin, options: { refreshIntervalMs: 0 } },
      ScimPlugin,
    ],
    env,
  });
  const admin = scimClient(gw.url, { 'x-gw-api-key': TEST_API_KEY });
  const scimKey = await createKey(admin, { name: 'okta', type: 'organisation-service', scopes: ['scim.*'] });
  return { gw, idp: scimClient(gw.url, { authorization: `Bearer ${scimKey}` }), scimKey, admin, bare: scimClient(gw.url, {}), stop: () => gw.stop() };
}

/** A new key's secret. */
export async function createKey(admin: ScimClient, body: Record<string, unknown>): Promise<string> {
  const reply = await admin.call('POST', '/v1/api-keys', body, { 'content-type': 'application/json' });
  if (reply.status !== 200) throw new Error(`create key: ${reply.status} ${reply.text}`);
  return reply.json.key;
}

let serial = 0;

/** A User body as Okta sends it. */
export function oktaUser(userName = `user${++serial}-${Date.now()}@example.com`, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const [given] = userName.split('@');
  return {
    schemas: [USER_SCHEMA],
    userName,
    name: { givenName: given, familyName: 'Tester' },
    emails: [{ primary: true, value: userName, type: 'work' }],
    displayName: `${given} Tester`,
    active: true,
    ...extra,
  };
}

/** Creates a user through SCIM; answers its id. */
export async function provision(idp: ScimClient, body: Record<string, unknown> = oktaUser()): Promise<string> {
  const reply = await idp.post(`${SCIM}/Users`, body);
  if (reply.status !== 201) throw new Error(`provision: ${reply.status} ${reply.text}`);
  return reply.json.id;
}

export async function createGroup(idp: ScimClient, displayName: string, members: string[] = []): Promise<string> {
  const reply = await idp.post(`${SCIM}/Groups`, { schemas: [GROUP_SCHEMA], displayName, members: members.map((value) => ({ value })) });
  if (reply.status !== 201) throw new Error(`create group: ${reply.status} ${reply.text}`);
  return reply.json.id;
}

/** Expects a SCIM error answer with `status` and (when given) `scimType`. */
export function scimErrorOf(reply: JsonReply): { status: string; scimType?: string; detail: string } {
  if (!reply.headers.get('content-type')?.startsWith(SCIM_CONTENT_TYPE)) throw new Error(`not a SCIM answer: ${reply.headers.get('content-type')} ${reply.text}`);
  if (!reply.json?.schemas?.includes(ERROR_SCHEMA)) throw new Error(`not a SCIM error: ${reply.text}`);
  return reply.json;
}
