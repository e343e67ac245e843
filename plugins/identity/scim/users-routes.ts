/**
 * SCIM Users (RFC 7644 §3.3–3.6), under /v1/scim/v2:
 *   POST   /Users        create (201, Location); an existing person with the email is linked, not duplicated
 *   GET    /Users        filter, startIndex, count, attributes, excludedAttributes
 *   GET    /Users/:id
 *   PUT    /Users/:id    replace
 *   PATCH  /Users/:id    PatchOp (active: false deactivates)
 *   DELETE /Users/:id    deletes the person, their memberships and workspace-user keys (204)
 * Deactivation marks the person inactive in admin.workspaces (no SSO sign-in or session, no JWT call),
 * ends every workspace membership and deletes their workspace-user keys; reactivation marks them
 * active again and restores what their groups map them to.
 */
import { Errors, nowIso, type RequestContext, type RouteDef } from '../../../core/index.js';
import { scimCaller } from './auth.js';
import { BASE, type ScimDeps } from './deps.js';
import { listWindow, project, projectionOf } from './list-params.js';
import { applyPatch, patchOperations } from './patch.js';
import { ScimErrors } from './scim-errors.js';
import { listResponse, noContent, scimJson, USER_SCHEMA } from './scim-json.js';
import { userInput, userView, type UserInput } from './user-resource.js';
import { isUniqueViolation } from './unique-violation.js';
import type { ScimUserRow } from './users-repo.js';

export function userRoutes(deps: ScimDeps): RouteDef[] {
  const { users, groups, sync, people, directory } = deps;

  const find = async (organisationId: string, id: string): Promise<ScimUserRow> => {
    const row = await users.get(organisationId, id);
    if (!row) throw ScimErrors.notFound('User', id);
    return row;
  };

  const view = async (row: ScimUserRow) => userView(row, deps.membershipMode ? await groups.groupsOf(row.user_id) : undefined);

  /** Group ids sent in `groups` (membership mode) must be groups of the organisation. */
  const checkGroups = async (organisationId: string, input: UserInput): Promise<void> => {
    for (const id of input.groups ?? []) {
      if (!(await groups.get(organisationId, id))) throw ScimErrors.invalidValue(`groups: no group "${id}"`);
    }
  };

  const rowOf = (input: UserInput, organisationId: string, userId: string, created: string, now: string): ScimUserRow => ({
    user_id: userId,
    organisation_id: organisationId,
    user_name: input.userName,
    user_name_key: input.userName.toLowerCase(),
    external_id: input.externalId,
    display_name: input.displayName,
    given_name: input.givenName,
    family_name: input.familyName,
    email: input.email,
    active: input.active ? 1 : 0,
    resource: JSON.stringify(input.resource),
    created_at: created,
    last_updated_at: now,
  });

  /** After a write: groups (membership mode), (de)activation, then memberships as the groups say. */
  const settle = async (organisationId: string, row: ScimUserRow, input: UserInput, wasActive: boolean): Promise<void> => {
    if (input.groups) await sync.setGroupsOfUser(organisationId, row.user_id, input.groups);
    if (!input.active && wasActive) await people.deactivatePerson(row.user_id);
    if (input.active && !wasActive) await people.reactivatePerson(row.user_id);
    await sync.sync(organisationId, row.user_id);
  };

  /** PUT and PATCH: the replacement `input` of `current`. */
  const replace = async (organisationId: string, current: ScimUserRow, input: UserInput): Promise<ScimUserRow> => {
    await checkGroups(organisationId, input);
    if (input.userName.toLowerCase() !== current.user_name_key) {
      const holder = await users.byUserName(organisationId, input.userName);
      if (holder && holder.user_id !== current.user_id) throw ScimErrors.uniqueness(`userName "${input.userName}" is taken`);
    }
    const changed = await people.updatePerson(current.user_id, { ...(input.email === current.email ? {} : { email: input.email }), name: input.personName });
    if (changed === 'email_taken') throw ScimErrors.uniqueness(`email ${input.email} belongs to another person of the organisation`);
    if (changed === 'not_found') {
      // The person was removed outside SCIM (DELETE /v1/users/:id): the SCIM record follows them.
      await users.delete(organisationId, current.user_id);
      throw ScimErrors.notFound('User', current.user_id);
    }
    const row = rowOf(input, organisationId, current.user_id, current.created_at, nowIso());
    await users.update(row).catch((e) => {
      throw isUniqueViolation(e) ? ScimErrors.uniqueness(`userName "${input.userName}" is taken`) : e;
    });
    await settle(organisationId, row, input, current.active === 1);
    return row;
  };

  const idParam = (ctx: RequestContext) => ctx.params['id']!;

  return [
    {
      method: 'POST', path: `${BASE}/Users`, body: 'json',
      handler: async (ctx) => {
        const { organisationId } = scimCaller(ctx, 'write');
        const input = userInput(ctx.request.body, deps.membershipMode);
        await checkGroups(organisationId, input);
        if (await users.byUserName(organisationId, input.userName)) throw ScimErrors.uniqueness(`userName "${input.userName}" is taken`);
        const person = await directory.findOrCreatePerson(organisationId, { email: input.email, ...(input.personName ? { name: input.personName } : {}) });
        if (!person.created && await users.get(organisationId, person.id)) {
          throw ScimErrors.uniqueness(`email ${input.email} belongs to another SCIM user`);
        }
        const now = nowIso();
        const row = rowOf(input, organisationId, person.id, now, now);
        try {
          await users.insert(row);
        } catch (e) {
          if (person.created) await people.deletePerson(person.id);
          throw isUniqueViolation(e) ? ScimErrors.uniqueness(`userName "${input.userName}" is taken`) : e;
        }
        // A person the organisation had already is linked: their name follows the identity provider.
        if (!person.created && input.personName) await people.updatePerson(person.id, { name: input.personName });
        await settle(organisationId, row, input, true);
        return scimJson(201, await view(row), { location: `${BASE}/Users/${row.user_id}` });
      },
    },
    {
      method: 'GET', path: `${BASE}/Users`, body: 'none',
      handler: async (ctx) => {
        const { organisationId } = scimCaller(ctx, 'read');
        const window = listWindow(ctx);
        const projection = projectionOf(ctx);
        const filter = ctx.request.query.get('filter') ?? undefined;
        const { total, rows } = await users.list(organisationId, filter, window.startIndex - 1, window.count);
        const resources = [];
        for (const row of rows) resources.push(project(await view(row), projection));
        return scimJson(200, listResponse(window, total, resources));
      },
    },
    {
      method: 'GET', path: `${BASE}/Users/:id`, body: 'none',
      handler: async (ctx) => {
        const { organisationId } = scimCaller(ctx, 'read');
        return scimJson(200, project(await view(await find(organisationId, idParam(ctx))), projectionOf(ctx)));
      },
    },
    {
      method: 'PUT', path: `${BASE}/Users/:id`, body: 'json',
      handler: async (ctx) => {
        const { organisationId } = scimCaller(ctx, 'write');
        const current = await find(organisationId, idParam(ctx));
        const row = await replace(organisationId, current, userInput(ctx.request.body, deps.membershipMode));
        return scimJson(200, await view(row));
      },
    },
    {
      method: 'PATCH', path: `${BASE}/Users/:id`, body: 'json',
      handler: async (ctx) => {
        const { organisationId } = scimCaller(ctx, 'write');
        const operations = patchOperations(ctx.request.body);
        const current = await find(organisationId, idParam(ctx));
        const patched = applyPatch(await view(current), operations, USER_SCHEMA);
        const row = await replace(organisationId, current, userInput(patched, deps.membershipMode));
        return scimJson(200, await view(row));
      },
    },
    {
      method: 'DELETE', path: `${BASE}/Users/:id`, body: 'none',
      handler: async (ctx) => {
        const { organisationId, ownerKey } = scimCaller(ctx, 'write');
        const current = await find(organisationId, idParam(ctx));
        const person = await directory.user(current.user_id);
        if (person?.role === 'owner' && !ownerKey) throw Errors.forbidden('only an organisation owner key removes an organisation owner');
        const memberOf = (await groups.groupsOf(current.user_id)).map((g) => g.id);
        await users.delete(organisationId, current.user_id);
        if (person) await people.deletePerson(current.user_id);
        await deps.mappings.revokeAll(current.user_id);
        const now = nowIso();
        for (const id of memberOf) await groups.touch(organisationId, id, now);
        return noContent();
      },
    },
  ];
}
