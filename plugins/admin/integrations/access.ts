/**
 * Who may do what with integrations. Organisation owners and admins may do everything (core
 * authz); other keys need the scope `integrations.<action>` (create, list, read, update, delete).
 * A workspace key sees the integrations allowed in its workspace and writes only those restricted
 * to exactly its workspace; a workspace `member` never writes, a `manager` only while the setting
 * `managersWriteWsIntegrations` (organisation, workspace override; default on) allows it.
 */
import { Errors, requireScope, type PluginServices, type Principal, type RequestContext } from '../../../core/index.js';
import { DirectoryService, OrgSettingsService, type Directory, type OrgSettings } from '../workspaces/contract.js';
import { allowedIn } from './resolve.js';
import type { Integration } from './record.js';

/** The workspaces plugin's services, looked up on use (it may be applied after this one, or not at all). */
export class ControlPlaneServices {
  constructor(private readonly services: PluginServices) {}

  get settings(): OrgSettings | undefined {
    return this.services.find(OrgSettingsService);
  }

  get directory(): Directory | undefined {
    return this.services.find(DirectoryService);
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
