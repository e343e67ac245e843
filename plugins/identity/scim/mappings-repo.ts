/**
 * Group-to-workspace mappings (scim_workspace_mappings) and the memberships SCIM granted through
 * them (scim_membership_grants): leaving a group removes only what SCIM granted.
 */
import type { RecordStore } from '../../../core/index.js';

export interface MappingRow {
  id: string;
  organisation_id: string;
  group_id: string;
  workspace_id: string;
  role: string;
  created_at: string;
  /** Joined from scim_groups. */
  group_name: string;
}

const SELECT = `SELECT w.id, w.organisation_id, w.group_id, w.workspace_id, w.role, w.created_at, g.display_name AS group_name
  FROM scim_workspace_mappings w JOIN scim_groups g ON g.id = w.group_id`;

export class MappingsRepo {
  constructor(private readonly store: RecordStore) {}

  async insert(row: Omit<MappingRow, 'group_name'>): Promise<void> {
    await this.store.run(
      'INSERT INTO scim_workspace_mappings (id, organisation_id, group_id, workspace_id, role, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      [row.id, row.organisation_id, row.group_id, row.workspace_id, row.role, row.created_at],
    );
  }

  get(organisationId: string, id: string): Promise<MappingRow | undefined> {
    return this.store.get<MappingRow>(`${SELECT} WHERE w.organisation_id = ? AND w.id = ?`, [organisationId, id]);
  }

  byGroupAndWorkspace(groupId: string, workspaceId: string): Promise<MappingRow | undefined> {
    return this.store.get<MappingRow>(`${SELECT} WHERE w.group_id = ? AND w.workspace_id = ?`, [groupId, workspaceId]);
  }

  async list(organisationId: string, filter: { workspaceId?: string; groupId?: string }, offset: number, limit: number): Promise<{ total: number; rows: MappingRow[] }> {
    const where = ['w.organisation_id = ?'];
    const params: unknown[] = [organisationId];
    if (filter.workspaceId !== undefined) {
      where.push('w.workspace_id = ?');
      params.push(filter.workspaceId);
    }
    if (filter.groupId !== undefined) {
      where.push('w.group_id = ?');
      params.push(filter.groupId);
    }
    const clause = where.join(' AND ');
    const total = (await this.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM scim_workspace_mappings w WHERE ${clause}`, params))?.n ?? 0;
    const rows = await this.store.all<MappingRow>(`${SELECT} WHERE ${clause} ORDER BY w.created_at, w.id LIMIT ? OFFSET ?`, [...params, limit, offset]);
    return { total: Number(total), rows };
  }

  async delete(organisationId: string, id: string): Promise<void> {
    await this.store.run('DELETE FROM scim_workspace_mappings WHERE organisation_id = ? AND id = ?', [organisationId, id]);
  }

  async deleteOfGroup(groupId: string): Promise<void> {
    await this.store.run('DELETE FROM scim_workspace_mappings WHERE group_id = ?', [groupId]);
  }

  /** The workspaces (and roles) mapped from the groups a user is in. */
  mappedFor(userId: string): Promise<Array<{ workspace_id: string; role: string }>> {
    return this.store.all(
      'SELECT w.workspace_id, w.role FROM scim_group_members m JOIN scim_workspace_mappings w ON w.group_id = m.group_id WHERE m.user_id = ?',
      [userId],
    );
  }

  grants(userId: string): Promise<Array<{ workspace_id: string; role: string }>> {
    return this.store.all('SELECT workspace_id, role FROM scim_membership_grants WHERE user_id = ?', [userId]);
  }

  async grant(userId: string, workspaceId: string, role: string, now: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      await tx.run('DELETE FROM scim_membership_grants WHERE user_id = ? AND workspace_id = ?', [userId, workspaceId]);
      await tx.run('INSERT INTO scim_membership_grants (user_id, workspace_id, role, created_at) VALUES (?, ?, ?, ?)', [userId, workspaceId, role, now]);
    });
  }

  async revoke(userId: string, workspaceId: string): Promise<void> {
    await this.store.run('DELETE FROM scim_membership_grants WHERE user_id = ? AND workspace_id = ?', [userId, workspaceId]);
  }

  async revokeAll(userId: string): Promise<void> {
    await this.store.run('DELETE FROM scim_membership_grants WHERE user_id = ?', [userId]);
  }
}
