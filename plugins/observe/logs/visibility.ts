/**
 * Who sees which logs and analytics (spec §2.3, v1.11.0 and v1.15.0):
 *   - every caller sees only its own organisation; a workspace key only its workspace;
 *   - organisation owners see everything;
 *   - organisation admins see everything, except that `organisationAdminsViewLogs: false` refuses
 *     them the log routes (analytics stay) and `organisationAdminsViewLogMetadata: false` hides
 *     the `metadata` of logs;
 *   - workspace admins see their whole workspace;
 *   - managers and members see only their own keys' rows when `managersViewAllData` /
 *     `membersViewAllData` is false (default true);
 *   - keys without a role (organisation and workspace service keys) see their organisation or workspace;
 *     a workspace-user key without a role counts as a member.
 * Settings come from the control plane's `OrgSettingsService` (effective settings with
 * the workspace's overrides); without it every flag has its default, i.e. everyone sees their own
 * organisation's (or workspace's) data.
 */
import { Errors, isOrganisationAdmin, requireScope, userIdOf, type PluginServices, type Principal, type RequestContext } from '../../../core/index.js';
import { DirectoryService, OrgSettingsService, type Directory } from '../../admin/workspaces/contract.js';
import type { ViewScope } from './filter.js';

export type Purpose = 'logs' | 'analytics';

export type ViewerKind = 'owner' | 'organisation-admin' | 'workspace-admin' | 'manager' | 'member' | 'service';

/** As core/authz reads roles: a workspace-user key carries its member's role (default member). */
export function viewerKind(principal: Principal): ViewerKind {
  const role = (principal.role ?? '').toLowerCase();
  if (principal.type === 'organisation-owner' || (role === 'owner' && principal.workspaceId === undefined)) return 'owner';
  if (isOrganisationAdmin(principal)) return 'organisation-admin';
  if (role === 'admin') return 'workspace-admin';
  if (role === 'manager') return 'manager';
  if (role === 'member' || principal.type === 'workspace-user') return 'member';
  return 'service';
}

/** A visibility flag: the setting when it is a boolean (also under `data_visibility`), else its default (true). */
export function flag(settings: Record<string, unknown>, name: string): boolean {
  const direct = settings[name];
  if (typeof direct === 'boolean') return direct;
  const group = settings['data_visibility'];
  const nested = group && typeof group === 'object' ? (group as Record<string, unknown>)[name] : undefined;
  return typeof nested === 'boolean' ? nested : true;
}

export const SCOPES: Readonly<Record<'list' | 'view' | 'analytics', string>> = {
  list: 'logs.list',
  view: 'logs.view',
  analytics: 'analytics.view',
};

export class Visibility {
  constructor(private readonly services: PluginServices) {}

  /** The caller's scope for a read, or 403. `workspace` is a requested workspace (id or slug). */
  async scope(ctx: RequestContext, purpose: Purpose, scopeName: string, workspace?: string): Promise<ViewScope> {
    const principal = requireScope(ctx, scopeName);
    const organisationId = principal.organisationId ?? '';
    const workspaceId = await this.#workspace(principal, organisationId, workspace);
    const kind = viewerKind(principal);
    const settings = kind === 'owner' || kind === 'service' || kind === 'workspace-admin' ? {} : await this.#settings(workspaceId);
    const scope: ViewScope = { organisationId, showMetadata: true };
    if (workspaceId !== undefined) scope.workspaceId = workspaceId;
    switch (kind) {
      case 'organisation-admin':
        if (purpose === 'logs' && !flag(settings, 'organisationAdminsViewLogs')) {
          throw Errors.forbidden('organisation admins may not view logs here (organisationAdminsViewLogs is off)');
        }
        scope.showMetadata = flag(settings, 'organisationAdminsViewLogMetadata');
        break;
      case 'manager':
        if (!flag(settings, 'managersViewAllData')) scope.keyIds = await this.#ownKeys(principal);
        break;
      case 'member':
        if (!flag(settings, 'membersViewAllData')) scope.keyIds = await this.#ownKeys(principal);
        break;
      default:
        break;
    }
    return scope;
  }

  /** The directory, for display names (`api_key_name`) when the control plane provides one. */
  directory(): Directory | undefined {
    return this.services.find(DirectoryService);
  }

  async #workspace(principal: Principal, organisationId: string, requested: string | undefined): Promise<string | undefined> {
    if (requested === undefined) return principal.workspaceId;
    let id = requested;
    const directory = this.directory();
    if (directory) {
      const found = await directory.workspace(requested);
      if (!found || (found.organisation_id !== undefined && found.organisation_id !== organisationId)) {
        throw Errors.notFound(`no workspace "${requested}"`, 'workspace_not_found');
      }
      id = found.id;
    }
    if (principal.workspaceId !== undefined && principal.workspaceId !== id) {
      throw Errors.forbidden(`the API key does not belong to workspace ${requested}`);
    }
    return id;
  }

  async #settings(workspaceId: string | undefined): Promise<Readonly<Record<string, unknown>>> {
    return (await this.services.find(OrgSettingsService)?.get(workspaceId)) ?? {};
  }

  async #ownKeys(principal: Principal): Promise<readonly string[]> {
    const userId = userIdOf(principal);
    const directory = this.directory();
    if (userId !== undefined && directory) {
      const keys = await directory.keysOfUser(userId);
      return keys.includes(principal.keyId) ? keys : [...keys, principal.keyId];
    }
    return [principal.keyId];
  }
}
