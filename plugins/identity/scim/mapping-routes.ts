/**
 * Group-to-workspace mappings (spec §4.16, §7; issue 20 item 2), gateway error envelope:
 *   POST   /v1/scim/workspaces      { scim_group_name | scim_group_id (exactly one), workspace_id (id or slug),
 *                                    role: admin | manager | member (any case) }; a group named by name is
 *                                    created when missing → the mapping (200)
 *   GET    /v1/scim/workspaces      workspace_id, scim_group_id, current_page, page_size
 *   GET    /v1/scim/workspaces/:id
 *   DELETE /v1/scim/workspaces/:id
 * Creating or deleting a mapping re-syncs the group's members at once (memberships.ts).
 * Scopes: scim.write (create, delete), scim.read (read).
 */
import {
  Errors, listPage, noStoreJson, nowIso, objectBody, pageOf, STRICT_PAGING, timeOrderedId, WORKSPACE_ROLES,
  type RouteDef, type WorkspaceRole,
} from '../../../core/index.js';
import { scimCaller } from './auth.js';
import type { ScimDeps } from './deps.js';
import type { ScimGroupRow } from './groups-repo.js';
import type { MappingRow } from './mappings-repo.js';
import { isUniqueViolation } from './unique-violation.js';

const PATH = '/v1/scim/workspaces';
const KNOWN_FIELDS = new Set(['scim_group_name', 'scim_group_id', 'workspace_id', 'role']);

interface MappingBody {
  groupName?: string;
  groupId?: string;
  workspace: string;
  role: WorkspaceRole;
}

function optionalText(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw Errors.invalidBody(name, 'must be a non-empty string');
  return value;
}

function mappingBody(raw: Record<string, unknown>): MappingBody {
  for (const name of Object.keys(raw)) {
    if (!KNOWN_FIELDS.has(name)) throw Errors.invalidBody(name, `is not a field of a SCIM workspace mapping (known: ${[...KNOWN_FIELDS].join(', ')})`);
  }
  const groupName = optionalText(raw, 'scim_group_name');
  const groupId = optionalText(raw, 'scim_group_id');
  if (groupName !== undefined && groupId !== undefined) throw Errors.invalidBody('scim_group_id', 'give exactly one of scim_group_name and scim_group_id, not both');
  if (groupName === undefined && groupId === undefined) throw Errors.invalidBody('scim_group_name', 'one of scim_group_name and scim_group_id is required');
  const workspace = optionalText(raw, 'workspace_id');
  if (workspace === undefined) throw Errors.invalidBody('workspace_id', 'is required');
  const role = optionalText(raw, 'role')?.toLowerCase();
  if (role === undefined) throw Errors.invalidBody('role', 'is required');
  if (!(WORKSPACE_ROLES as readonly string[]).includes(role)) throw Errors.invalidBody('role', `must be one of ${WORKSPACE_ROLES.join(', ')} (any case)`);
  return { ...(groupName === undefined ? {} : { groupName }), ...(groupId === undefined ? {} : { groupId }), workspace, role: role as WorkspaceRole };
}

function mappingView(row: MappingRow) {
  return {
    id: row.id,
    object: 'scim-workspace-mapping',
    scim_group_id: row.group_id,
    scim_group_name: row.group_name,
    workspace_id: row.workspace_id,
    role: row.role,
    organisation_id: row.organisation_id,
    created_at: row.created_at,
  };
}

export function mappingRoutes(deps: ScimDeps): RouteDef[] {
  const { groups, mappings, sync, directory } = deps;

  /** The group a body names: by id (must exist), or by name (made when missing). */
  const groupOf = async (organisationId: string, body: MappingBody): Promise<{ group: ScimGroupRow; created: boolean }> => {
    if (body.groupId !== undefined) {
      const group = await groups.get(organisationId, body.groupId);
      if (!group) throw Errors.invalidBody('scim_group_id', `no SCIM group "${body.groupId}" in the organisation`);
      return { group, created: false };
    }
    const name = body.groupName!;
    const found = await groups.byName(organisationId, name);
    if (found) return { group: found, created: false };
    const now = nowIso();
    const group: ScimGroupRow = { id: timeOrderedId(), organisation_id: organisationId, display_name: name, display_name_key: name.toLowerCase(), external_id: null, created_at: now, last_updated_at: now };
    try {
      await groups.insert(group);
    } catch (e) {
      // Made meanwhile by another request: use that one.
      const winner = isUniqueViolation(e) ? await groups.byName(organisationId, name) : undefined;
      if (!winner) throw e;
      return { group: winner, created: false };
    }
    return { group, created: true };
  };

  return [
    {
      method: 'POST', path: PATH, body: 'json',
      handler: async (ctx) => {
        const { organisationId } = scimCaller(ctx, 'write');
        const body = mappingBody(objectBody(ctx));
        const workspace = await directory.workspace(body.workspace, organisationId);
        if (!workspace) throw Errors.invalidBody('workspace_id', `no workspace "${body.workspace}" in the organisation`);
        if (workspace.status !== 'active') throw Errors.invalidRequest(`workspace ${workspace.id} is ${workspace.status}`, 'workspace_id', 'workspace_archived');
        const { group, created } = await groupOf(organisationId, body);
        if (await mappings.byGroupAndWorkspace(group.id, workspace.id)) {
          throw Errors.invalidRequest(`SCIM group ${group.id} is mapped to workspace ${workspace.id} already: delete that mapping to change its role`, 'workspace_id', 'duplicate');
        }
        const id = timeOrderedId();
        await mappings.insert({ id, organisation_id: organisationId, group_id: group.id, workspace_id: workspace.id, role: body.role, created_at: nowIso() }).catch((e) => {
          throw isUniqueViolation(e) ? Errors.invalidRequest(`SCIM group ${group.id} is mapped to workspace ${workspace.id} already`, 'workspace_id', 'duplicate') : e;
        });
        await sync.syncAll(organisationId, await groups.memberIds(group.id));
        return noStoreJson(200, { ...mappingView((await mappings.get(organisationId, id))!), scim_group_created: created });
      },
    },
    {
      method: 'GET', path: PATH, body: 'none',
      handler: async (ctx) => {
        const { organisationId } = scimCaller(ctx, 'read');
        const page = pageOf(ctx, STRICT_PAGING);
        const query = ctx.request.query;
        const filter: { workspaceId?: string; groupId?: string } = {};
        const workspaceParam = query.get('workspace_id');
        if (workspaceParam) {
          const workspace = await directory.workspace(workspaceParam, organisationId);
          if (!workspace) return noStoreJson(200, listPage(page, 0, []));
          filter.workspaceId = workspace.id;
        }
        const groupParam = query.get('scim_group_id');
        if (groupParam) filter.groupId = groupParam;
        const { total, rows } = await mappings.list(organisationId, filter, page.page * page.size, page.size);
        return noStoreJson(200, listPage(page, total, rows.map(mappingView)));
      },
    },
    {
      method: 'GET', path: `${PATH}/:id`, body: 'none',
      handler: async (ctx) => {
        const { organisationId } = scimCaller(ctx, 'read');
        const row = await mappings.get(organisationId, ctx.params['id']!);
        if (!row) throw Errors.notFound(`no SCIM workspace mapping "${ctx.params['id']}"`, 'mapping_not_found');
        return noStoreJson(200, mappingView(row));
      },
    },
    {
      method: 'DELETE', path: `${PATH}/:id`, body: 'none',
      handler: async (ctx) => {
        const { organisationId } = scimCaller(ctx, 'write');
        const row = await mappings.get(organisationId, ctx.params['id']!);
        if (!row) throw Errors.notFound(`no SCIM workspace mapping "${ctx.params['id']}"`, 'mapping_not_found');
        await mappings.delete(organisationId, row.id);
        await sync.syncAll(organisationId, await groups.memberIds(row.group_id));
        return noStoreJson(200, { id: row.id, object: 'scim-workspace-mapping', deleted: true });
      },
    },
  ];
}
