/**
 * SCIM Groups (RFC 7644 §3.3–3.6), under /v1/scim/v2:
 *   POST   /Groups        create (201, Location)
 *   GET    /Groups        filter (displayName, externalId, id, members[value eq "…"]), startIndex, count,
 *                         attributes, excludedAttributes (excludedAttributes=members skips reading members)
 *   GET    /Groups/:id
 *   PUT    /Groups/:id    replace (members as given)
 *   PATCH  /Groups/:id    PatchOp: add / remove / replace members (also `members[value eq "id"]`), displayName, externalId
 *   DELETE /Groups/:id    also deletes its workspace mappings (204)
 * Every change of members re-syncs those people's workspace memberships (memberships.ts).
 */
import { nowIso, timeOrderedId, type RouteDef } from '../../../core/index.js';
import { scimCaller } from './auth.js';
import { BASE, type ScimDeps } from './deps.js';
import { groupInput, groupView, type GroupInput } from './group-resource.js';
import type { ScimGroupRow } from './groups-repo.js';
import { listWindow, project, projectionOf, wants, type Projection } from './list-params.js';
import { applyPatch, patchOperations } from './patch.js';
import { ScimErrors } from './scim-errors.js';
import { GROUP_SCHEMA, listResponse, noContent, scimJson } from './scim-json.js';
import { isUniqueViolation } from './unique-violation.js';

export function groupRoutes(deps: ScimDeps): RouteDef[] {
  const { users, groups, sync } = deps;

  const find = async (organisationId: string, id: string): Promise<ScimGroupRow> => {
    const row = await groups.get(organisationId, id);
    if (!row) throw ScimErrors.notFound('Group', id);
    return row;
  };

  const view = async (row: ScimGroupRow, projection: Projection = {}) =>
    project(groupView(row, wants(projection, 'members') ? await groups.members(row.id) : undefined), projection);

  const checkMembers = async (organisationId: string, ids: readonly string[]): Promise<void> => {
    for (const id of new Set(ids)) {
      if (!(await users.get(organisationId, id))) throw ScimErrors.invalidValue(`members: no user "${id}"`);
    }
  };

  const checkName = async (organisationId: string, displayName: string, self?: string): Promise<void> => {
    const holder = await groups.byName(organisationId, displayName);
    if (holder && holder.id !== self) throw ScimErrors.uniqueness(`displayName "${displayName}" is taken by group ${holder.id}`);
  };

  /** Sets the members to exactly `wanted`, then syncs everyone who joined or left. */
  const setMembers = async (organisationId: string, groupId: string, wanted: readonly string[]): Promise<void> => {
    const now = nowIso();
    const current = new Set(await groups.memberIds(groupId));
    const target = new Set(wanted);
    const changed: string[] = [];
    for (const id of target) if (!current.has(id) && await groups.addMember(groupId, id, now)) changed.push(id);
    for (const id of current) if (!target.has(id) && await groups.removeMember(groupId, id)) changed.push(id);
    await sync.syncAll(organisationId, changed);
  };

  /** PUT and PATCH: the group's attributes and (when given) members. */
  const replace = async (organisationId: string, current: ScimGroupRow, input: GroupInput): Promise<ScimGroupRow> => {
    await checkName(organisationId, input.displayName, current.id);
    if (input.members) await checkMembers(organisationId, input.members);
    const row: ScimGroupRow = { ...current, display_name: input.displayName, display_name_key: input.displayName.toLowerCase(), external_id: input.externalId, last_updated_at: nowIso() };
    await groups.update(row).catch((e) => {
      throw isUniqueViolation(e) ? ScimErrors.uniqueness(`displayName "${input.displayName}" is taken`) : e;
    });
    if (input.members) await setMembers(organisationId, current.id, input.members);
    return row;
  };

  return [
    {
      method: 'POST', path: `${BASE}/Groups`, body: 'json',
      handler: async (ctx) => {
        const { organisationId } = scimCaller(ctx, 'write');
        const input = groupInput(ctx.request.body);
        await checkName(organisationId, input.displayName);
        if (input.members) await checkMembers(organisationId, input.members);
        const now = nowIso();
        const row: ScimGroupRow = {
          id: timeOrderedId(), organisation_id: organisationId, display_name: input.displayName,
          display_name_key: input.displayName.toLowerCase(), external_id: input.externalId, created_at: now, last_updated_at: now,
        };
        await groups.insert(row).catch((e) => {
          throw isUniqueViolation(e) ? ScimErrors.uniqueness(`displayName "${input.displayName}" is taken`) : e;
        });
        if (input.members) await setMembers(organisationId, row.id, input.members);
        return scimJson(201, await view(row), { location: `${BASE}/Groups/${row.id}` });
      },
    },
    {
      method: 'GET', path: `${BASE}/Groups`, body: 'none',
      handler: async (ctx) => {
        const { organisationId } = scimCaller(ctx, 'read');
        const window = listWindow(ctx);
        const projection = projectionOf(ctx);
        const { total, rows } = await groups.list(organisationId, ctx.request.query.get('filter') ?? undefined, window.startIndex - 1, window.count);
        const resources = [];
        for (const row of rows) resources.push(await view(row, projection));
        return scimJson(200, listResponse(window, total, resources));
      },
    },
    {
      method: 'GET', path: `${BASE}/Groups/:id`, body: 'none',
      handler: async (ctx) => {
        const { organisationId } = scimCaller(ctx, 'read');
        return scimJson(200, await view(await find(organisationId, ctx.params['id']!), projectionOf(ctx)));
      },
    },
    {
      method: 'PUT', path: `${BASE}/Groups/:id`, body: 'json',
      handler: async (ctx) => {
        const { organisationId } = scimCaller(ctx, 'write');
        const current = await find(organisationId, ctx.params['id']!);
        const input = groupInput(ctx.request.body);
        // A replaced group has exactly the members the body lists (none when it lists none).
        const row = await replace(organisationId, current, { ...input, members: input.members ?? [] });
        return scimJson(200, await view(row));
      },
    },
    {
      method: 'PATCH', path: `${BASE}/Groups/:id`, body: 'json',
      handler: async (ctx) => {
        const { organisationId } = scimCaller(ctx, 'write');
        const operations = patchOperations(ctx.request.body);
        const current = await find(organisationId, ctx.params['id']!);
        // Patched as JSON: members as bare ids, so a large group costs no user reads.
        const before = {
          displayName: current.display_name,
          ...(current.external_id === null ? {} : { externalId: current.external_id }),
          members: (await groups.memberIds(current.id)).map((value) => ({ value })),
        };
        const after = applyPatch(before, operations, GROUP_SCHEMA);
        const input = groupInput(after);
        const row = await replace(organisationId, current, { ...input, members: input.members ?? [] });
        return scimJson(200, await view(row, projectionOf(ctx)));
      },
    },
    {
      method: 'DELETE', path: `${BASE}/Groups/:id`, body: 'none',
      handler: async (ctx) => {
        const { organisationId } = scimCaller(ctx, 'write');
        const current = await find(organisationId, ctx.params['id']!);
        const members = await groups.memberIds(current.id);
        await deps.mappings.deleteOfGroup(current.id);
        await groups.delete(organisationId, current.id);
        await sync.syncAll(organisationId, members);
        return noContent();
      },
    },
  ];
}
