/**
 * Workspaces:
 *   POST   /v1/workspaces           { name, slug?, description?, default_config_id? }  → the record with its id
 *   GET    /v1/workspaces           status (comma list of active, archived; archived only for owners and admins), current_page, page_size
 *   GET    /v1/workspaces/:id       by id or slug
 *   PUT    /v1/workspaces/:id       { name?, slug?, description?, default_config_id? (null clears) }
 *   DELETE /v1/workspaces/:id       archives it: the record stays, its keys are refused while archived
 * Scopes: workspaces.create | read | update | delete.
 * `default_config_id` names a stored config (admin.configs) that routes requests of the workspace's
 * keys that name no config; it must exist and not be another workspace's (stored as its id).
 */
import {
  Errors, isOrganisationAdmin, isOrganisationLevel, listPage, noStoreJson, pageOf, parseBody, queryList, requireScope,
  requireWorkspaceRole, STRICT_PAGING, timeOrderedId, type RouteDef,
} from '../../../core/index.js';
import { organisationOf, requireActive, requireOrganisationLevel, workspaceParam } from './access.js';
import type { StoredConfigs } from '../configs/contract.js';
import type { WorkspaceDirectory } from './directory.js';
import { createWorkspaceBody, slugify, updateWorkspaceBody } from './schemas.js';
import { isUniqueViolation } from './unique-violation.js';
import { workspaceView } from './views.js';
import type { WorkspaceRepo } from './workspace-repo.js';

const STATUSES = ['active', 'archived'] as const;

export function workspaceRoutes(repo: WorkspaceRepo, directory: WorkspaceDirectory, configs: () => StoredConfigs | undefined): RouteDef[] {
  /** A default config named in a body, as its id; null clears it. */
  const defaultConfig = async (ref: string | null | undefined, organisationId: string, workspaceId: string): Promise<string | null | undefined> => {
    if (ref === undefined || ref === null) return ref;
    const stored = configs();
    if (!stored) throw Errors.invalidBody('default_config_id', 'needs stored configs (plugin admin.configs), which is not loaded');
    return (await stored.defaultFor(organisationId, ref, workspaceId)).id;
  };
  return [
    {
      method: 'POST', path: '/v1/workspaces', body: 'json',
      handler: async (ctx) => {
        const principal = requireScope(ctx, 'workspaces.create');
        requireOrganisationLevel(principal, 'create workspaces');
        const body = parseBody(ctx, createWorkspaceBody);
        const organisationId = organisationOf(principal);
        if (body.slug !== undefined && directory.slugTaken(organisationId, body.slug)) {
          throw slugTaken(body.slug);
        }
        const id = timeOrderedId();
        const defaultConfigId = (await defaultConfig(body.default_config_id, organisationId, id)) ?? null;
        const slug = body.slug ?? freeSlug(directory, organisationId, body.name);
        await repo.insertWorkspace({
          id, organisation_id: organisationId, slug, name: body.name, description: body.description ?? null, is_default: 0, created_at: new Date().toISOString(),
          default_config_id: defaultConfigId,
        }).catch((e) => {
          throw isUniqueViolation(e) ? slugTaken(slug) : e;
        });
        await directory.changed();
        return noStoreJson(200, workspaceView(directory.workspace(id)!));
      },
    },
    {
      method: 'GET', path: '/v1/workspaces', body: 'none',
      handler: async (ctx) => {
        const principal = requireScope(ctx, 'workspaces.read');
        const page = pageOf(ctx, STRICT_PAGING);
        const statuses: readonly string[] = queryList(ctx, 'status', STATUSES) ?? ['active'];
        if (statuses.includes('archived') && !isOrganisationAdmin(principal)) {
          throw Errors.forbidden('only organisation owners and admins list archived workspaces');
        }
        const all = directory.workspaces(organisationOf(principal)).filter((w) =>
          statuses.includes(w.row.status) && (isOrganisationLevel(principal) || w.row.id === principal.workspaceId));
        const start = page.page * page.size;
        return noStoreJson(200, listPage(page, all.length, all.slice(start, start + page.size).map(workspaceView)));
      },
    },
    {
      method: 'GET', path: '/v1/workspaces/:id', body: 'none',
      handler: async (ctx) => noStoreJson(200, workspaceView(workspaceParam(ctx, requireScope(ctx, 'workspaces.read'), directory))),
    },
    {
      method: 'PUT', path: '/v1/workspaces/:id', body: 'json',
      handler: async (ctx) => {
        const principal = requireScope(ctx, 'workspaces.update');
        const workspace = workspaceParam(ctx, principal, directory);
        requireWorkspaceRole(ctx, workspace.row.id, 'admin');
        const body = parseBody(ctx, updateWorkspaceBody);
        requireActive(workspace);
        if (body.slug !== undefined && body.slug !== workspace.row.slug) {
          if (workspace.row.is_default === 1) throw Errors.invalidBody('slug', 'of the default workspace cannot change');
          if (directory.slugTaken(workspace.row.organisation_id, body.slug)) throw slugTaken(body.slug);
        }
        const changes = { ...body, default_config_id: await defaultConfig(body.default_config_id, workspace.row.organisation_id, workspace.row.id) };
        await repo.updateWorkspace(workspace.row.id, changes, new Date().toISOString()).catch((e) => {
          throw isUniqueViolation(e) ? slugTaken(body.slug!) : e;
        });
        await directory.changed();
        return noStoreJson(200, workspaceView(directory.workspace(workspace.row.id)!));
      },
    },
    {
      method: 'DELETE', path: '/v1/workspaces/:id', body: 'none',
      handler: async (ctx) => {
        const principal = requireScope(ctx, 'workspaces.delete');
        requireOrganisationLevel(principal, 'archive workspaces');
        const workspace = workspaceParam(ctx, principal, directory);
        if (workspace.row.is_default === 1) throw Errors.invalidRequest('the default workspace cannot be archived', null, 'default_workspace');
        requireActive(workspace);
        await repo.archiveWorkspace(workspace.row.id, new Date().toISOString());
        await directory.changed();
        return noStoreJson(200, workspaceView(directory.workspace(workspace.row.id)!));
      },
    },
  ];
}

/** A slug from the name, with `-2`, `-3` ... when it is taken. */
function freeSlug(directory: WorkspaceDirectory, organisationId: string, name: string): string {
  const base = slugify(name);
  let slug = base;
  for (let n = 2; directory.slugTaken(organisationId, slug); n++) slug = `${base}-${n}`;
  return slug;
}

function slugTaken(slug: string) {
  return Errors.invalidRequest(`body.slug: "${slug}" is taken`, 'slug', 'duplicate');
}
