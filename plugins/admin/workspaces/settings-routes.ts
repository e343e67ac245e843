/**
 * Settings (settings.ts lists them with their defaults):
 *   GET /v1/organisation/settings         the organisation's values
 *   PUT /v1/organisation/settings         any subset; organisation-level keys only
 *   GET /v1/workspaces/:id/settings       the workspace's effective values, plus `overrides`
 *   PUT /v1/workspaces/:id/settings       overrides of the overridable flags; null removes one; organisation-level keys only
 * Scopes: organisation_settings.read | update (organisation), workspaces.read | update (workspace).
 */
import { Errors, noStoreJson, parseBody, requireScope, type RouteDef } from '../../../core/index.js';
import { organisationOf, requireOrganisationLevel, workspaceParam } from './access.js';
import type { Workspace, WorkspaceDirectory } from './directory.js';
import { merged, organisationSettingsBody, workspaceSettingsBody } from './settings.js';
import type { WorkspaceRepo } from './workspace-repo.js';

export function settingsRoutes(repo: WorkspaceRepo, directory: WorkspaceDirectory): RouteDef[] {
  const organisationAnswer = (organisationId: string) => {
    const organisation = directory.organisation(organisationId);
    if (!organisation) throw Errors.notFound(`no organisation "${organisationId}"`, 'organisation_not_found');
    return noStoreJson(200, {
      object: 'organisation_settings',
      organisation_id: organisation.row.id,
      ...organisation.settings,
      last_updated_at: organisation.row.last_updated_at,
    });
  };
  const workspaceAnswer = (workspace: Workspace) => noStoreJson(200, {
    object: 'workspace_settings',
    workspace_id: workspace.row.id,
    ...directory.settings(workspace.row.id),
    overrides: workspace.overrides,
    last_updated_at: workspace.row.last_updated_at,
  });

  return [
    {
      method: 'GET', path: '/v1/organisation/settings', body: 'none',
      handler: async (ctx) => organisationAnswer(organisationOf(requireScope(ctx, 'organisation_settings.read'))),
    },
    {
      method: 'PUT', path: '/v1/organisation/settings', body: 'json',
      handler: async (ctx) => {
        const principal = requireScope(ctx, 'organisation_settings.update');
        requireOrganisationLevel(principal, 'change organisation settings');
        const body = parseBody(ctx, organisationSettingsBody);
        const organisationId = organisationOf(principal);
        const organisation = directory.organisation(organisationId);
        if (!organisation) throw Errors.notFound(`no organisation "${organisationId}"`, 'organisation_not_found');
        await repo.setOrganisationSettings(organisationId, merged(organisation.stored, body, false), new Date().toISOString());
        await directory.changed();
        return organisationAnswer(organisationId);
      },
    },
    {
      method: 'GET', path: '/v1/workspaces/:id/settings', body: 'none',
      handler: async (ctx) => workspaceAnswer(workspaceParam(ctx, requireScope(ctx, 'workspaces.read'), directory)),
    },
    {
      method: 'PUT', path: '/v1/workspaces/:id/settings', body: 'json',
      handler: async (ctx) => {
        const principal = requireScope(ctx, 'workspaces.update');
        requireOrganisationLevel(principal, 'override organisation settings');
        const workspace = workspaceParam(ctx, principal, directory);
        const body = parseBody(ctx, workspaceSettingsBody);
        await repo.setWorkspaceSettings(workspace.row.id, merged(workspace.overrides, body, true), new Date().toISOString());
        await directory.changed();
        return workspaceAnswer(directory.workspace(workspace.row.id)!);
      },
    },
  ];
}
