/**
 * Set-up of the MCP server registry tests: a gateway with the registry (the default preset, without
 * the real control plane so that tests name callers and workspaces freely through `x-test-principal`),
 * fake OrgSettings / Directory services whose state a test changes, and request helpers.
 */
import type { Logger, PluginEntry, Principal } from '../../../../core/index.js';
import McpServersPlugin from '../../../../plugins/agents/mcp-servers/index.js';
import { McpServersService, type McpServers } from '../../../../plugins/agents/mcp-servers/contract.js';
import { startGateway, type TestGateway } from '../../../helpers/gateway.js';
import { as, fakeControlPlane, SECRET_KEY, TestPrincipal, type FakeWorkspace } from '../../admin/integrations/harness.js';

export { as, call } from '../../admin/integrations/harness.js';
export { SECRET_KEY };

export interface ControlState {
  settings: Record<string, unknown>;
  workspaces: FakeWorkspace[];
}

export function controlState(): ControlState {
  return {
    settings: { managersWriteMcpServers: true, managersWriteWsMcpIntegrations: true },
    workspaces: [
      { id: 'ws-1', slug: 'team-one', organisation_id: 'default', status: 'active' },
      { id: 'ws-2', slug: 'team-two', organisation_id: 'default', status: 'active' },
      { id: 'ws-x', slug: 'elsewhere', organisation_id: 'org-2', status: 'active' },
    ],
  };
}

export interface StartOptions {
  state?: ControlState;
  env?: Record<string, string>;
  dataDir?: string;
  plugins?: PluginEntry[];
  /** Shared state in this Redis (the invalidation bus among others). */
  redisUrl?: string;
  /** Where the gateway logs (nothing by default). */
  logger?: Logger;
  /** Options of agents.mcp-servers. */
  options?: Record<string, unknown>;
}

export function startRegistry(options: StartOptions = {}): Promise<TestGateway> {
  const plugins: PluginEntry[] = [TestPrincipal, fakeControlPlane(options.state ?? controlState()), ...(options.plugins ?? [])];
  if (options.options) plugins.push({ use: McpServersPlugin, options: options.options });
  return startGateway({
    composition: { plugins, disable: ['admin.workspaces', 'admin.api-keys'] },
    env: { GW_SECRET_KEY: SECRET_KEY, ...options.env },
    logger: options.logger,
    settings: {
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.redisUrl ? { redisUrl: options.redisUrl } : {}),
    },
  });
}

/** The registry's service inside a running test gateway. */
export function registryOf(gw: TestGateway): McpServers {
  return gw.gateway.runtime.services.get(McpServersService);
}

/** A workspace caller of `ws-1` with every mcp_servers scope. */
export const wsCaller = (extra: Partial<Principal> = {}) => as({ workspaceId: 'ws-1', scopes: ['mcp_servers.*'], ...extra });

/** A principal object for service calls. */
export function principal(extra: Partial<Principal> = {}): Principal {
  return { keyId: 'test-key', type: 'workspace-service', organisationId: 'default', scopes: [], ...extra };
}
