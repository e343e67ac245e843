/**
 * Test harness of the observability plugins: a gateway with logs (+ analytics, metrics, tracing as
 * asked) against mock providers, the request-log service, and a stand-in control plane: principals
 * from a test header (the auth plugin keeps a principal already set) and fake OrgSettings /
 * Directory services.
 */
import { definePlugin, Stage, Type, type PluginClass, type PluginEntry, type Principal } from '../../../../core/index.js';
import RequestLogsPlugin from '../../../../plugins/observe/logs/index.js';
import type { RequestLogService } from '../../../../plugins/observe/logs/service.js';
import { startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import { DirectoryService, OrgSettingsService } from '../../../../plugins/admin/workspaces/contract.js';
import { RequestLogsService } from '../../../../plugins/observe/logs/contract.js';
import { fakeDirectory } from '../../../helpers/fake-directory.js';

export const PRINCIPAL_HEADER = 'x-test-principal';

export interface ControlPlaneState {
  /** Effective settings per workspace id ('' = organisation level). */
  settings: Record<string, Record<string, unknown>>;
  workspaces: { id: string; slug: string; organisation_id: string; status: string }[];
  keyNames: Record<string, string>;
}

/** A control plane stand-in; `state` can be changed between requests. */
export function fakeControlPlane(state: ControlPlaneState, withServices = true): PluginClass {
  return definePlugin({
    id: 'test.control-plane',
    options: Type.Object({}),
    provides: withServices ? [OrgSettingsService, DirectoryService] : [],
    apply(api) {
      api.hooks.onRequest.tap({ name: 'test.control-plane', stage: Stage.FIRST }, (ctx) => {
        const header = ctx.request.headers[PRINCIPAL_HEADER];
        if (header) ctx.principal = JSON.parse(header) as Principal;
      });
      if (!withServices) return;
      api.services.provide(OrgSettingsService, {
        get: async (workspaceId?: string) => ({ ...state.settings[''], ...(workspaceId ? state.settings[workspaceId] : {}) }),
      });
      api.services.provide(DirectoryService, fakeDirectory({
        workspace: async (idOrSlug: string) => {
          const found = state.workspaces.find((w) => w.id === idOrSlug || w.slug === idOrSlug);
          return found && { name: found.slug, is_default: false, ...found };
        },
        keyName: async (keyId: string) => state.keyNames[keyId],
      }));
    },
  });
}

export function principalHeader(p: Partial<Principal> & { keyId: string }): Record<string, string> {
  return { [PRINCIPAL_HEADER]: JSON.stringify({ type: 'workspace-user', scopes: ['logs.*', 'analytics.*'], organisationId: 'org-1', ...p }) };
}

export interface ObservedOptions {
  logs?: Record<string, unknown>;
  extra?: PluginEntry[];
  env?: Record<string, string>;
  /** More plugins to leave out. */
  disable?: string[];
}

export async function startObserved(o: ObservedOptions = {}): Promise<TestGateway> {
  // The control plane and the price table are stood in for by the tests (fakeControlPlane), or absent.
  return startGateway({
    composition: {
      plugins: [...(o.extra ?? []), { use: RequestLogsPlugin, options: o.logs ?? {} }],
      disable: ['admin.workspaces', 'admin.api-keys', 'admin.integrations', 'policy.usage-limits', ...(o.disable ?? [])],
    },
    env: o.env,
  });
}

export function logService(gw: TestGateway): RequestLogService {
  return gw.gateway.runtime.services.get(RequestLogsService);
}

/** A direct-mode request's headers for a mock provider. */
export function mockHeaders(mock: MockOpenAI, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-gw-api-key': TEST_API_KEY,
    'x-gw-config': JSON.stringify({ provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1` }),
    ...extra,
  };
}

export interface Reply {
  status: number;
  headers: Headers;
  json: any;
}

export async function getJson(base: string, path: string, headers: Record<string, string> = { 'x-gw-api-key': TEST_API_KEY }): Promise<Reply> {
  const res = await fetch(base + path, { headers });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, headers: res.headers, json };
}

/** Waits until `check` holds (polling every few ms), or fails after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
