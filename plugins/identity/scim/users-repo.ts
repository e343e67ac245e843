/** SCIM attributes of people (table scim_users; the person is admin.workspaces' user `user_id`). */
import type { RecordStore } from '../../../core/index.js';
import { filterToSql, type AttributeMap } from './filter.js';
import { USER_SCHEMA } from './scim-json.js';

export interface ScimUserRow {
  user_id: string;
  organisation_id: string;
  user_name: string;
  user_name_key: string;
  external_id: string | null;
  display_name: string | null;
  given_name: string | null;
  family_name: string | null;
  /** The person's email (lower-case), as admin.workspaces keeps it. */
  email: string;
  active: number;
  /** The other attributes the identity provider sent (name.formatted, emails, extensions ...), as JSON. */
  resource: string;
  created_at: string;
  last_updated_at: string;
}

const COLUMNS = 'user_id, organisation_id, user_name, user_name_key, external_id, display_name, given_name, family_name, email, active, resource, created_at, last_updated_at';

/** What User filters may name, and where it is kept. */
const USER_ATTRIBUTES: AttributeMap = {
  'id': { kind: 'string', column: 'user_id', caseExact: true },
  'username': { kind: 'string', column: 'user_name', caseExact: false },
  'externalid': { kind: 'string', column: 'external_id', caseExact: true },
  'displayname': { kind: 'string', column: 'display_name', caseExact: false },
  'name.givenname': { kind: 'string', column: 'given_name', caseExact: false },
  'name.familyname': { kind: 'string', column: 'family_name', caseExact: false },
  'emails.value': { kind: 'string', column: 'email', caseExact: false },
  'active': { kind: 'boolean', column: 'active' },
  'meta.created': { kind: 'string', column: 'created_at', caseExact: true },
  'meta.lastmodified': { kind: 'string', column: 'last_updated_at', caseExact: true },
  'groups.value': {
    kind: 'exists', column: 'gm.group_id', caseExact: true,
    sql: (condition) => `EXISTS (SELECT 1 FROM scim_group_members gm WHERE gm.user_id = scim_users.user_id AND ${condition})`,
  },
};

export class ScimUsersRepo {
  constructor(private readonly store: RecordStore) {}

  get(organisationId: string, userId: string): Promise<ScimUserRow | undefined> {
    return this.store.get<ScimUserRow>(`SELECT ${COLUMNS} FROM scim_users WHERE organisation_id = ? AND user_id = ?`, [organisationId, userId]);
  }

  byUserName(organisationId: string, userName: string): Promise<ScimUserRow | undefined> {
    return this.store.get<ScimUserRow>(`SELECT ${COLUMNS} FROM scim_users WHERE organisation_id = ? AND user_name_key = ?`, [organisationId, userName.toLowerCase()]);
  }

  async insert(row: ScimUserRow): Promise<void> {
    await this.store.run(`INSERT INTO scim_users (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
      row.user_id, row.organisation_id, row.user_name, row.user_name_key, row.external_id, row.display_name, row.given_name,
      row.family_name, row.email, row.active, row.resource, row.created_at, row.last_updated_at,
    ]);
  }

  async update(row: ScimUserRow): Promise<void> {
    await this.store.run(
      `UPDATE scim_users SET user_name = ?, user_name_key = ?, external_id = ?, display_name = ?, given_name = ?, family_name = ?,
         email = ?, active = ?, resource = ?, last_updated_at = ? WHERE organisation_id = ? AND user_id = ?`,
      [row.user_name, row.user_name_key, row.external_id, row.display_name, row.given_name, row.family_name, row.email, row.active,
        row.resource, row.last_updated_at, row.organisation_id, row.user_id],
    );
  }

  async delete(organisationId: string, userId: string): Promise<void> {
    await this.store.run('DELETE FROM scim_group_members WHERE user_id = ?', [userId]);
    await this.store.run('DELETE FROM scim_users WHERE organisation_id = ? AND user_id = ?', [organisationId, userId]);
  }

  /** One page of the organisation's SCIM users matching `filter` (SCIM syntax), and how many match. */
  async list(organisationId: string, filter: string | undefined, offset: number, limit: number): Promise<{ total: number; rows: ScimUserRow[] }> {
    const condition = filter ? filterToSql(filter, USER_ATTRIBUTES, USER_SCHEMA, this.store.dialect) : { sql: '1 = 1', params: [] };
    const where = `organisation_id = ? AND ${condition.sql}`;
    const params = [organisationId, ...condition.params];
    const total = (await this.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM scim_users WHERE ${where}`, params))?.n ?? 0;
    const rows = limit === 0 ? [] : await this.store.all<ScimUserRow>(
      `SELECT ${COLUMNS} FROM scim_users WHERE ${where} ORDER BY created_at, user_id LIMIT ? OFFSET ?`, [...params, limit, offset],
    );
    return { total: Number(total), rows };
  }
}
