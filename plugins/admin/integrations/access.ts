/**
 * Who may do what with integrations. Organisation owners and admins may do everything (core
 * authz); other keys need the scope `integrations.<action>` (create, list, read, update, delete).
 * A workspace key sees the integrations allowed in its workspace and writes only those restricted
 * to exactly its workspace; a workspace `member` never writes, a `manager` only while the setting
 * `managersWriteWsIntegrations` (organisation, workspace override; default on) allows it.
 */
import { Errors, requireScope, type DependencyContainer, type Principal, type RequestContext } from '../../../core/index.js';
import { allowedIn } from './resolve.js';
import type { Integration } from './record.js';

export const ORG_SETTINGS = Symbol.for('gw.OrgSettings');
export const DIRECTORY = Symbol.for('gw.Directory');

export interface OrgSettingsService {
  get(workspaceId?: string, organisationId?: string): Promise<Record<string, unknown>>;
}

export interface WorkspaceRecord {
  id: string;
  slug: string;
  organisation_id: string;
  status: string;
}

export interface DirectoryService {
  workspace(idOrSlug: string, organisationId?: string): Promise<WorkspaceRecord | undefined>;
}

/** Services of the API-keys/workspaces plugin, looked up on first use (it may be applied after this one, or not at all). */
export class ControlPlaneServices {
  #settings: OrgSettingsService | undefined | null = null;
  #directory: DirectoryService | undefined | null = null;

  constructor(private readonly container: DependencyContainer) {}

  get settings(): OrgSettingsService | undefined {
    if (this.#settings === null) this.#settings = this.#lookup<OrgSettingsService>(ORG_SETTINGS);
    return this.#settings;
  }

  get directory(): DirectoryService | undefined {
    if (this.#directory === null) this.#directory = this.#lookup<DirectoryService>(DIRECTORY);
    return this.#directory;
  }

  #lookup<T>(token: symbol): T | undefined {
    return this.container.isRegistered(token, true) ? this.container.resolve<T>(token) : undefined;
  }
}

export type WriteAction = 'create' | 'update' | 'delete';

export function organisationOf(principal: Principal): string {
  return principal.organisationId ?? 'default';
}

/** The caller, when it may write integrations at all (scope, role, settings). */
export async function authorizeWrite(ctx: RequestContext, action: WriteAction, services: ControlPlaneServices): Promise<Principal> {
  const principal = requireScope(ctx, `integrations.${action}`);
  const workspaceId = principal.workspaceId;
  if (workspaceId === undefined) return principal;
  const role = typeof principal.role === 'string' ? principal.role.toLowerCase() : undefined;
  if (role === 'member') throw Errors.forbidden('workspace members cannot write integrations');
  if (role === 'manager') {
    const settings = await services.settings?.get(workspaceId, principal.organisationId);
    if (settings?.['managersWriteWsIntegrations'] === false) {
      throw Errors.forbidden('workspace managers cannot write integrations (setting managersWriteWsIntegrations is off)');
    }
  }
  return principal;
}

export function requireRead(ctx: RequestContext, action: 'list' | 'read'): Principal {
  return requireScope(ctx, `integrations.${action}`);
}

/** Whether the caller may see the integration (read routes answer 404 otherwise, revealing nothing). */
export function canSee(principal: Principal, integration: Integration): boolean {
  return integration.organisationId === organisationOf(principal) && allowedIn(integration, principal.workspaceId);
}

/** A workspace key writes only integrations restricted to exactly its own workspace. */
export function requireOwnWorkspace(principal: Principal, integration: Pick<Integration, 'allowAllWorkspaces' | 'allowedWorkspaces' | 'slug'>): void {
  const ws = principal.workspaceId;
  if (ws === undefined) return;
  const own = !integration.allowAllWorkspaces && integration.allowedWorkspaces.length === 1 && integration.allowedWorkspaces[0] === ws;
  if (!own) throw Errors.forbidden(`integration "${integration.slug}" is not limited to workspace ${ws}: only an organisation key may change it`);
}
