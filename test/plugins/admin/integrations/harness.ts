/**
 * Shared set-up of the control-plane tests (integrations, configs, guardrail store, models):
 * a gateway with those plugins and the secret box, a test plugin that lets a request name its
 * caller (`x-test-principal`, so roles and workspaces can be tested before API keys carry them),
 * fake OrgSettings / Directory services, and small request helpers.
 */
import { randomBytes } from 'node:crypto';
import { definePlugin, Stage, type Principal, type PluginEntry } from '../../../../core/index.js';
import ConfigsPlugin from '../../../../plugins/admin/configs/index.js';
import GuardrailStorePlugin from '../../../../plugins/admin/guardrails/index.js';
import GuardrailsRunnerPlugin from '../../../../plugins/guardrails/runner/index.js';
import IntegrationsPlugin from '../../../../plugins/admin/integrations/index.js';
import ModelsPlugin from '../../../../plugins/admin/models/index.js';
import SecretBoxPlugin from '../../../../plugins/security/secret-box/index.js';
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import { startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { DirectoryService, OrgSettingsService } from '../../../../plugins/admin/workspaces/contract.js';
import { fakeDirectory } from '../../../helpers/fake-directory.js';

export const PRINCIPAL_HEADER = 'x-test-principal';

/** Sets the caller from `x-test-principal` (JSON) before the API-key check, which then trusts it. */
export const TestPrincipal = definePlugin({
  id: 'test.principal',
  apply(api) {
    api.hooks.onRequest.tap({ name: api.id, stage: Stage.BEFORE_AUTH }, (ctx) => {
      const given = ctx.request.headers[PRINCIPAL_HEADER];
      if (given) ctx.principal = JSON.parse(given) as Principal;
    });
  },
});

export interface FakeWorkspace {
  id: string;
  slug: string;
  organisation_id: string;
  status: string;
}

/** What the API-keys/workspaces plugin will register: settings per workspace and workspace lookups. */
export function fakeControlPlane(state: { settings: Record<string, unknown>; workspaces: FakeWorkspace[] }) {
  return definePlugin({
    id: 'test.control-plane',
    provides: [OrgSettingsService, DirectoryService],
    apply(api) {
      api.services.provide(OrgSettingsService, { get: async () => ({ ...state.settings }) });
      api.services.provide(DirectoryService, fakeDirectory({
        workspace: async (ref: string) => {
          const found = state.workspaces.find((w) => w.id === ref || w.slug === ref);
          return found && { name: found.slug, is_default: false, ...found };
        },
      }));
    },
  });
}

export const SECRET_KEY = randomBytes(32).toString('base64');

export const ADMIN_PLUGINS: PluginEntry[] = [
  SecretBoxPlugin, IntegrationsPlugin, ConfigsPlugin, GuardrailsRunnerPlugin, GuardrailStorePlugin, ModelsPlugin, TestPrincipal,
];

export function startAdminGateway(options: { plugins?: PluginEntry[]; env?: Record<string, string>; dataDir?: string } = {}): Promise<TestGateway> {
  return startGateway({
    // Workspace ids are taken as given (no directory), so tests name workspaces freely.
    composition: { plugins: [...ADMIN_PLUGINS, ...(options.plugins ?? [])], disable: ['admin.workspaces', 'admin.api-keys'] },
    env: { GW_SECRET_KEY: SECRET_KEY, ...options.env },
    settings: options.dataDir ? { dataDir: options.dataDir } : undefined,
  });
}

/** Headers that make the request come from `principal` (organisation `default` unless given). */
export function as(principal: Partial<Principal>): Record<string, string> {
  const full: Principal = { keyId: 'test-key', type: 'workspace-service', organisationId: 'default', scopes: [], ...principal };
  return { [PRINCIPAL_HEADER]: JSON.stringify(full) };
}

export { call } from '../../../helpers/gateway.js';

/** An OpenAI integration pointing at a mock provider. */
export function openaiIntegration(mock: MockOpenAI, slug: string, key: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { slug, provider: 'openai', key, configurations: { custom_host: `${mock.url}/v1` }, ...extra };
}

/** The bearer token the mock provider received on its last request. */
export function lastKey(mock: MockOpenAI): string | undefined {
  const auth = mock.requests.at(-1)?.headers['authorization'];
  return typeof auth === 'string' ? auth.replace(/^Bearer /, '') : undefined;
}

/** Chat headers with no provider credential of the client's own. */
export function chatHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, ...extra };
}
