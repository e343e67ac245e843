/** Shared set-up of the rate-limit tests: a gateway with the plugin, callers, policy helpers. */
import { Stage, type PluginApi, type PluginEntry, type Principal } from '../../../../core/index.js';
import RateLimitsPlugin from '../../../../plugins/policies/rate-limits/index.js';
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, configHeaders, jsonReply, postJson, startGateway, TEST_API_KEY, type JsonReply, type TestGateway } from '../../../helpers/gateway.js';
import { DirectoryService } from '../../../../plugins/admin/workspaces/contract.js';

export const BASE = '/v1/policies/rate-limits';

/**
 * Lets a test call as any principal: the request authenticates with the bootstrap key, then
 * `x-test-principal: {"keyId": ...}` replaces the principal's fields (the organisation stays the
 * bootstrap key's unless given).
 */
export class TestPrincipalPlugin {
  static readonly manifest = { id: 'test.principal' };
  apply(api: PluginApi): void {
    api.hooks.onRequest.tap({ name: 'test.principal', stage: Stage.AFTER_AUTH }, (ctx) => {
      const header = ctx.request.headers['x-test-principal'];
      if (!header || !ctx.principal) return;
      const { role: _role, workspaceId: _ws, ...owner } = ctx.principal;
      ctx.principal = { ...owner, type: 'workspace-service', scopes: ['*'], ...JSON.parse(header) } as Principal;
    });
  }
}

/** The workspace organisation-level keys count in: the directory's `default`, else the name `default`. */
export async function defaultWorkspaceId(gw: TestGateway): Promise<string> {
  const directory = gw.gateway.runtime.services.find(DirectoryService);
  if (!directory) return 'default';
  return (await directory.workspace('default'))?.id ?? 'default';
}

/**
 * A workspace an organisation key may name: created through the control plane when its directory
 * is loaded (answering its id), else the given name, taken as is.
 */
export async function aWorkspace(gw: TestGateway, slug: string): Promise<string> {
  if (!gw.gateway.runtime.services.has(DirectoryService)) return slug;
  const reply = await api(gw, 'POST', '/v1/workspaces', { name: slug, slug });
  if (reply.status !== 200) throw new Error(`workspace not created: ${reply.status} ${reply.text}`);
  return reply.json.id as string;
}

export interface Caller {
  keyId: string;
  workspaceId?: string;
  organisationId?: string;
  role?: string;
  scopes?: string[];
  type?: string;
}

export function asCaller(caller: Caller | undefined): Record<string, string> {
  return caller ? { 'x-test-principal': JSON.stringify(caller) } : {};
}

export function startLimitsGateway(options: { plugins?: PluginEntry[]; rateLimits?: Record<string, unknown>; env?: Record<string, string> } = {}): Promise<TestGateway> {
  return startGateway({
    plugins: [TestPrincipalPlugin, { use: RateLimitsPlugin, options: options.rateLimits ?? {} }, ...(options.plugins ?? [])],
    env: options.env,
  });
}

export function leaf(mock: MockOpenAI): Record<string, unknown> {
  return { provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1` };
}

export function adminHeaders(caller?: Caller): Record<string, string> {
  return { 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, ...asCaller(caller) };
}

export async function api(gw: TestGateway, method: string, path: string, body?: unknown, caller?: Caller): Promise<JsonReply> {
  const res = await fetch(gw.url + path, { method, headers: adminHeaders(caller), body: body === undefined ? undefined : JSON.stringify(body) });
  return jsonReply(res);
}

/** Creates a policy (as the bootstrap owner unless a caller is given) and returns its id. */
export async function createPolicy(gw: TestGateway, policy: Record<string, unknown>, caller?: Caller): Promise<string> {
  const reply = await api(gw, 'POST', BASE, policy, caller);
  if (reply.status !== 200) throw new Error(`policy not created: ${reply.status} ${reply.text}`);
  return reply.json.id as string;
}

export interface ChatOptions {
  caller?: Caller;
  metadata?: Record<string, string>;
  body?: Record<string, unknown>;
  path?: string;
  config?: Record<string, unknown>;
}

export function chat(gw: TestGateway, mock: MockOpenAI, o: ChatOptions = {}): Promise<JsonReply> {
  const extra: Record<string, string> = { ...asCaller(o.caller) };
  if (o.metadata) extra['x-gw-metadata'] = JSON.stringify(o.metadata);
  return postJson(gw.url, o.path ?? '/v1/chat/completions', o.body ?? CHAT_BODY, configHeaders(o.config ?? leaf(mock), extra));
}

export const statusesOf = (replies: JsonReply[]) => replies.map((r) => r.status);
export const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

/** Lets onResponse observers (token counting) run after the client got its answer. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 2000, stepMs = 10): Promise<void> {
  // performance.now(): tests fake Date, and a faked Date would never reach the deadline.
  const until = performance.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (performance.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}
