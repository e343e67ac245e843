/**
 * Users of the organisation (organisation-level keys only):
 *   POST   /v1/users        { email, name?, role? owner|admin|member (any case, default member) }
 *   GET    /v1/users        email, role, current_page, page_size
 *   GET    /v1/users/:id
 *   DELETE /v1/users/:id    also ends their memberships and deletes their workspace-user keys
 * Scopes: users.create | read | delete.
 */
import {
  Errors, isOrganisationAdmin, listPage, noStoreJson, pageOf, parseBody, queryList, requireScope, STRICT_PAGING, timeOrderedId,
  type KeyStore, type Principal, type RouteDef,
} from '../../../core/index.js';
import { organisationOf, requireOrganisationLevel } from './access.js';
import type { NewUserRow, PeopleRepo, UserFilter, UserRow } from './people-repo.js';
import { createUserBody, ORGANISATION_ROLES, roleFrom, type OrganisationRole } from './schemas.js';
import { isUniqueViolation } from './unique-violation.js';
import { userView } from './views.js';

export function userRoutes(people: PeopleRepo, keys: KeyStore): RouteDef[] {
  const find = async (id: string, principal: Principal): Promise<UserRow> => {
    const user = await people.user(id);
    if (!user || user.organisation_id !== principal.organisationId) throw Errors.notFound(`no user "${id}"`, 'user_not_found');
    return user;
  };

  return [
    {
      method: 'POST', path: '/v1/users', body: 'json',
      handler: async (ctx) => {
        const principal = requireScope(ctx, 'users.create');
        requireOrganisationLevel(principal, 'manage users');
        const body = parseBody(ctx, createUserBody);
        const role = roleFrom(body.role ?? 'member', ORGANISATION_ROLES, 'role', Errors.invalidBody);
        assertMayHandle(principal, role);
        const organisationId = organisationOf(principal);
        const email = body.email.toLowerCase();
        if (await people.userByEmail(organisationId, email)) throw duplicate(email);
        const now = new Date().toISOString();
        const row: NewUserRow = { id: timeOrderedId(), organisation_id: organisationId, email, name: body.name ?? null, role, created_at: now, last_updated_at: now };
        await people.insertUser(row).catch((e) => {
          throw isUniqueViolation(e) ? duplicate(email) : e;
        });
        return noStoreJson(200, userView(row));
      },
    },
    {
      method: 'GET', path: '/v1/users', body: 'none',
      handler: async (ctx) => {
        const principal = requireScope(ctx, 'users.read');
        requireOrganisationLevel(principal, 'list the organisation\'s users');
        const query = ctx.request.query;
        const page = pageOf(ctx, STRICT_PAGING);
        const filter: UserFilter = { organisationId: organisationOf(principal) };
        const email = query.get('email');
        if (email) filter.email = email.toLowerCase();
        const role = queryList(ctx, 'role', ORGANISATION_ROLES);
        if (role?.[0]) filter.role = role[0];
        const { total, rows } = await people.users(filter, page.page * page.size, page.size);
        return noStoreJson(200, listPage(page, total, rows.map(userView)));
      },
    },
    {
      method: 'GET', path: '/v1/users/:id', body: 'none',
      handler: async (ctx) => {
        const principal = requireScope(ctx, 'users.read');
        requireOrganisationLevel(principal, 'read the organisation\'s users');
        return noStoreJson(200, userView(await find(ctx.params['id']!, principal)));
      },
    },
    {
      method: 'DELETE', path: '/v1/users/:id', body: 'none',
      handler: async (ctx) => {
        const principal = requireScope(ctx, 'users.delete');
        requireOrganisationLevel(principal, 'remove users');
        const user = await find(ctx.params['id']!, principal);
        assertMayHandle(principal, user.role as OrganisationRole);
        const deletedKeys = await keys.deleteUserKeys(user.id);
        await people.deleteUser(user.id);
        return noStoreJson(200, { id: user.id, object: 'user', deleted: true, deleted_api_keys: deletedKeys });
      },
    },
  ];
}

/** Only an owner key makes or removes owners; only organisation admins make or remove admins. */
function assertMayHandle(principal: Principal, role: OrganisationRole): void {
  if (role === 'owner' && principal.type !== 'organisation-owner') throw Errors.forbidden('only an organisation owner key manages owners');
  if (role === 'admin' && !isOrganisationAdmin(principal)) throw Errors.forbidden('only organisation owners and admins manage admins');
}

function duplicate(email: string) {
  return Errors.invalidRequest(`body.email: a user with email ${email} exists`, 'email', 'duplicate');
}
