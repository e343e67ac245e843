/**
 * A gateway with the control-plane plugins (secret box, API keys, workspaces) and an auth plugin
 * on a clock the test moves by hand; a small client for the admin routes.
 */
import ApiKeyAuthPlugin from '../../../../plugins/security/api-key-auth/index.js';
import ApiKeysPlugin from '../../../../plugins/admin/api-keys/index.js';
import SecretBoxPlugin from '../../../../plugins/security/secret-box/index.js';
import WorkspacesPlugin from '../../../../plugins/admin/workspaces/index.js';
import { jsonReply, startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;

/** Starts on a whole second: the store keeps times in seconds, so windows then end exactly on the test's ticks. */
export class ManualClock {
  t = Math.floor(Date.now() / 1000) * 1000;
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

/** auth.api-key reading time from `clock`. */
export function authWith(clock: ManualClock): typeof ApiKeyAuthPlugin {
  return class ManualClockAuth extends ApiKeyAuthPlugin {
    constructor() {
      super(clock);
    }
  };
}

export interface ControlPlaneOptions {
  clock?: ManualClock;
  env?: Record<string, string>;
  authOptions?: Record<string, unknown>;
  workspacesOptions?: Record<string, unknown>;
}

export interface Reply {
  status: number;
  json: any;
  text: string;
}

export interface Client {
  get(path: string): Promise<Reply>;
  post(path: string, body?: unknown): Promise<Reply>;
  put(path: string, body: unknown): Promise<Reply>;
  del(path: string): Promise<Reply>;
}

export interface ControlPlane {
  gw: TestGateway;
  clock: ManualClock;
  /** The bootstrap organisation-owner key's client. */
  owner: Client;
  as(key: string): Client;
  stop(): Promise<void>;
}

export async function startControlPlane(options: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const clock = options.clock ?? new ManualClock();
  const gw = await startGateway({
    plugins: [
      SecretBoxPlugin,
      { use: authWith(clock), options: { rotationCheckIntervalMs: 0, ...options.authOptions } },
      ApiKeysPlugin,
      { use: WorkspacesPlugin, options: { refreshIntervalMs: 0, ...options.workspacesOptions } },
    ],
    env: options.env,
  });
  const as = (key: string) => client(gw.url, key);
  return { gw, clock, owner: as(TEST_API_KEY), as, stop: () => gw.stop() };
}

export function client(base: string, key: string): Client {
  const call = async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const headers: Record<string, string> = { 'x-gw-api-key': key };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return jsonReply(res);
  };
  return {
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body),
    put: (path, body) => call('PUT', path, body),
    del: (path) => call('DELETE', path),
  };
}

/** The default workspace's id. */
export async function defaultWorkspaceId(cp: ControlPlane): Promise<string> {
  const reply = await cp.owner.get('/v1/workspaces/default');
  if (reply.status !== 200) throw new Error(`default workspace: ${reply.status} ${reply.text}`);
  return reply.json.id;
}

/** Creates a key with the owner key and returns its record plus secret; fails the test on a non-200. */
export async function createKey(cp: ControlPlane, body: Record<string, unknown>, by: Client = cp.owner): Promise<any> {
  const reply = await by.post('/v1/api-keys', body);
  if (reply.status !== 200) throw new Error(`create key: ${reply.status} ${reply.text}`);
  return reply.json;
}

/** A user of the organisation, member of `workspaceId` with `role`. */
export async function member(cp: ControlPlane, workspaceId: string, role: string, email = `${role}-${Math.random().toString(36).slice(2)}@example.com`): Promise<{ userId: string; memberReply: Reply }> {
  const user = await cp.owner.post('/v1/users', { email, name: role, role: 'member' });
  if (user.status !== 200) throw new Error(`create user: ${user.status} ${user.text}`);
  const memberReply = await cp.owner.post(`/v1/workspaces/${workspaceId}/members`, { user_id: user.json.id, role });
  if (memberReply.status !== 200) throw new Error(`add member: ${memberReply.status} ${memberReply.text}`);
  return { userId: user.json.id, memberReply };
}

/** A workspace-user key of a new member with `role`, holding `scopes`. */
export async function userKey(cp: ControlPlane, workspaceId: string, role: string, scopes: string[] = ['*']): Promise<{ key: string; id: string; userId: string }> {
  const { userId } = await member(cp, workspaceId, role);
  const created = await createKey(cp, { name: `${role} key`, type: 'workspace-user', workspace_id: workspaceId, user_id: userId, scopes });
  return { key: created.key, id: created.id, userId };
}
