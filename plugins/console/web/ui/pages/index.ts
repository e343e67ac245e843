/**
 * The console's pages, in the order of the navigation. `scope` hides a page from a caller whose
 * rights do not include it (the gateway refuses them anyway: this only keeps the menu honest).
 */
import type { FunctionComponent } from 'preact';
import { Analytics } from './analytics/index';
import { ApiKeysPage } from './api-keys/index';
import { ConfigsPage } from './configs/index';
import { Guardrails } from './guardrails/index';
import { Home } from './home';
import { Integrations } from './integrations/index';
import { Limits } from './limits/index';
import { Logs } from './logs/index';
import { McpServers } from './mcp-servers/index';
import { Playground } from './playground/playground';
import { WorkspacesPage } from './workspaces/index';

export interface PageDef {
  id: string;
  label: string;
  /** The page is listed when the caller has this scope (or any of these). */
  scope?: string | readonly string[];
  /** Shown under "Administration" in the navigation. */
  admin?: boolean;
  component: FunctionComponent;
}

export const PAGES: readonly PageDef[] = [
  { id: '', label: 'Home', component: Home },
  { id: 'logs', label: 'Logs', scope: 'logs.list', component: Logs },
  { id: 'analytics', label: 'Analytics', scope: 'analytics.view', component: Analytics },
  { id: 'playground', label: 'Playground', component: Playground },
  { id: 'api-keys', label: 'API keys', scope: 'api_keys.read', admin: true, component: ApiKeysPage },
  { id: 'workspaces', label: 'Workspaces', scope: 'workspaces.read', admin: true, component: WorkspacesPage },
  { id: 'integrations', label: 'Integrations', scope: 'integrations.list', admin: true, component: Integrations },
  { id: 'configs', label: 'Configs', scope: 'configs.list', admin: true, component: ConfigsPage },
  { id: 'guardrails', label: 'Guardrails', scope: 'guardrails.list', admin: true, component: Guardrails },
  { id: 'limits', label: 'Limits', scope: ['rate_limits.list', 'usage_limits.list'], admin: true, component: Limits },
  { id: 'mcp-servers', label: 'MCP servers', scope: 'mcp_servers.list', admin: true, component: McpServers },
];
