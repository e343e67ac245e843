/**
 * The console's pages, in the order of the navigation. `scope` hides a page from a caller whose
 * rights do not include it (the gateway refuses them anyway: this only keeps the menu honest).
 */
import type { FunctionComponent } from 'preact';
import { Analytics } from './analytics/index';
import { Home } from './home';
import { Logs } from './logs/index';
import { Playground } from './playground/playground';

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
  { id: 'logs', label: 'Logs', scope: 'logs.list', component: Logs },
  { id: 'analytics', label: 'Analytics', scope: 'analytics.view', component: Analytics },
  { id: 'playground', label: 'Playground', component: Playground },
];
