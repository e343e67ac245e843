/** SCIM groups and their members (tables scim_groups, scim_group_members). */
import type { RecordStore } from '../../../core/index.js';
import { filterToSql, type AttributeMap } from './filter.js';
import { GROUP_SCHEMA } from './scim-json.js';

export interface ScimGroupRow {
  id: string;
  organisation_id: string;
  display_name: string;
  display_name_key: string;
  external_id: string | null;
  created_at: string;
  last_updated_at: string;
}

export interface GroupMember {
  user_id: string;
  user_name: string;
  display_name: string | null;
}

const COLUMNS = 'id, organisation_id, display_name, display_name_key, external_id, created_at, last_updated_at';

/** What Group filters may name, and where it is kept. */
const GROUP_ATTRIBUTES: AttributeMap = {
  'id': { kind: 'string', column: 'id', caseExact: true },
  'displayname': { kind: 'string', column: 'display_name', caseExact: false },
  'externalid': { kind: 'string', column: 'external_id', caseExact: true },
  'meta.created': { kind: 'string', column: 'created_at', caseExact: true },
  'meta.lastmodified': { kind: 'string', column: 'last_updated_at', caseExact: true },
  'members.value': {
    kind: 'exists', column: 'gm.user_id', caseExact: true,
    sql: (condition) => `EXISTS (SELECT 1 FROM scim_group_members gm WHERE gm.group_id = scim_groups.id AND ${condition})`,
  },
};

export class ScimGroupsRepo {
  constructor(private readonly store: RecordStore) {}

  get(organisationId: string, id: string): Promise<ScimGroupRow | undefined> {
    return this.store.get<ScimGroupRow>(`SELECT ${COLUMNS} FROM scim_groups WHERE organisation_id = ? AND id = ?`, [organisationId, id]);
  }

  byName(organisationId: string, displayName: string): Promise<ScimGroupRow | undefined> {
    return this.store.get<ScimGroupRow>(`SELECT ${COLUMNS} FROM scim_groups WHERE organisation_id = ? AND display_name_key = ?`, [organisationId, displayName.toLowerCase()]);
  }

  async insert(row: ScimGroupRow): Promise<void> {
    await this.store.run(`INSERT INTO scim_groups (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`, [
      row.id, row.organisation_id, row.display_name, row.display_name_key, row.external_id, row.created_at, row.last_updated_at,
    ]);
  }

  async update(row: ScimGroupRow): Promise<void> {
    await this.store.run(
      'UPDATE scim_groups SET display_name = ?, display_name_key = ?, external_id = ?, last_updated_at = ? WHERE organisation_id = ? AND id = ?',
      [row.display_name, row.display_name_key, row.external_id, row.last_updated_at, row.organisation_id, row.id],
    );
  }

  async delete(organisationId: string, id: string): Promise<void> {
    await this.store.run('DELETE FROM scim_group_members WHERE group_id = ?', [id]);
    await this.store.run('DELETE FROM scim_groups WHERE organisation_id = ? AND id = ?', [organisationId, id]);
  }

  async list(organisationId: string, filter: string | undefined, offset: number, limit: number): Promise<{ total: number; rows: ScimGroupRow[] }> {
    const condition = filter ? filterToSql(filter, GROUP_ATTRIBUTES, GROUP_SCHEMA, this.store.dialect) : { sql: '1 = 1', params: [] };
    const where = `organisation_id = ? AND ${condition.sql}`;
    const params = [organisationId, ...condition.params];
    const total = (await this.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM scim_groups WHERE ${where}`, params))?.n ?? 0;
    const rows = limit === 0 ? [] : await this.store.all<ScimGroupRow>(
      `SELECT ${COLUMNS} FROM scim_groups WHERE ${where} ORDER BY created_at, id LIMIT ? OFFSET ?`, [...params, limit, offset],
    );
    return { total: Number(total), rows };
  }

  /** Members with what a group answer shows of them. */
  members(groupId: string): Promise<GroupMember[]> {
    return this.store.all<GroupMember>(
      `SELECT m.user_id, u.user_name, u.display_name FROM scim_group_members m JOIN scim_users u ON u.user_id = m.user_id
       WHERE m.group_id = ? ORDER BY m.created_at, m.user_id`,
      [groupId],
    );
  }

  async memberIds(groupId: string): Promise<string[]> {
    return (await this.store.all<{ user_id: string }>('SELECT user_id FROM scim_group_members WHERE group_id = ?', [groupId])).map((r) => r.user_id);
  }

  /** The groups a user is in. */
  groupsOf(userId: string): Promise<Array<{ id: string; display_name: string }>> {
    return this.store.all(
      'SELECT g.id, g.display_name FROM scim_group_members m JOIN scim_groups g ON g.id = m.group_id WHERE m.user_id = ? ORDER BY g.display_name_key',
      [userId],
    );
  }

  /** Adds a member (no-op when present); whether it was added. */
  async addMember(groupId: string, userId: string, now: string): Promise<boolean> {
    const { changes } = await this.store.run(
      'INSERT INTO scim_group_members (group_id, user_id, created_at) SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM scim_group_members WHERE group_id = ? AND user_id = ?)',
      [groupId, userId, now, groupId, userId],
    );
    return changes > 0;
  }

  async removeMember(groupId: string, userId: string): Promise<boolean> {
    const { changes } = await this.store.run('DELETE FROM scim_group_members WHERE group_id = ? AND user_id = ?', [groupId, userId]);
    return changes > 0;
  }

  async touch(organisationId: string, id: string, now: string): Promise<void> {
    await this.store.run('UPDATE scim_groups SET last_updated_at = ? WHERE organisation_id = ? AND id = ?', [now, organisationId, id]);
  }
}
