/**
 * The console's pages, in the order of the navigation. `scope` hides a page from a caller whose
 * rights do not include it (the gateway refuses them anyway: this only keeps the menu honest).
 */
import type { FunctionComponent } from 'preact';
import { ApiKeysPage } from './api-keys/index';
import { ConfigsPage } from './configs/index';
import { Home } from './home';
import { Playground } from './playground/playground';
import { WorkspacesPage } from './workspaces/index';

export interface PageDef {
  id: string;
  label: string;
  scope?: string;
  /** Shown under "Administration" in the navigation. */
  admin?: boolean;
  component: FunctionComponent;
}

export const PAGES: readonly PageDef[] = [
  { id: '', label: 'Home', component: Home },
  { id: 'playground', label: 'Playground', component: Playground },
  { id: 'api-keys', label: 'API keys', scope: 'api_keys.read', admin: true, component: ApiKeysPage },
  { id: 'workspaces', label: 'Workspaces', scope: 'workspaces.read', admin: true, component: WorkspacesPage },
  { id: 'configs', label: 'Configs', scope: 'configs.list', admin: true, component: ConfigsPage },
];
