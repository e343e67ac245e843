/** Users of an organisation and their workspace memberships (portable SQL; admin paths only, not cached). */
import type { RecordStore } from '../../../core/index.js';

export interface UserRow {
  id: string;
  organisation_id: string;
  email: string;
  name: string | null;
  role: string;
  created_at: string;
  last_updated_at: string;
  /** 1, or 0 once deactivated (by SCIM): an inactive person neither signs in nor calls. */
  active: number;
}

/** A new user: active (the column's default). */
export type NewUserRow = Omit<UserRow, 'active'>;

export interface MemberRow {
  workspace_id: string;
  user_id: string;
  role: string;
  created_at: string;
  last_updated_at: string;
  email: string;
  name: string | null;
}

const NEW_USER_COLUMNS = 'id, organisation_id, email, name, role, created_at, last_updated_at';
const USER_COLUMNS = `${NEW_USER_COLUMNS}, active`;
const MEMBER_COLUMNS = 'm.workspace_id, m.user_id, m.role, m.created_at, m.last_updated_at, u.email, u.name';

export interface UserFilter {
  organisationId: string;
  email?: string;
  role?: string;
}

export class PeopleRepo {
  constructor(private readonly store: RecordStore) {}

  async insertUser(row: NewUserRow): Promise<void> {
    await this.store.run(
      `INSERT INTO users (${NEW_USER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [row.id, row.organisation_id, row.email, row.name, row.role, row.created_at, row.last_updated_at],
    );
  }

  user(id: string): Promise<UserRow | undefined> {
    return this.store.get<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, [id]);
  }

  userByEmail(organisationId: string, email: string): Promise<UserRow | undefined> {
    return this.store.get<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE organisation_id = ? AND email = ?`, [organisationId, email]);
  }

  async users(filter: UserFilter, offset: number, limit: number): Promise<{ total: number; rows: UserRow[] }> {
    const where = ['organisation_id = ?'];
    const params: unknown[] = [filter.organisationId];
    if (filter.email !== undefined) {
      where.push('email = ?');
      params.push(filter.email);
    }
    if (filter.role !== undefined) {
      where.push('role = ?');
      params.push(filter.role);
    }
    const clause = where.join(' AND ');
    const total = (await this.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM users WHERE ${clause}`, params))?.n ?? 0;
    const rows = await this.store.all<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE ${clause} ORDER BY created_at, id LIMIT ? OFFSET ?`, [...params, limit, offset]);
    return { total, rows };
  }

  /** Changes a user's email and/or name (the email lower-cased by the caller). */
  async updateUser(id: string, patch: { email?: string; name?: string | null }, now: string): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [];
    if (patch.email !== undefined) {
      sets.push('email = ?');
      params.push(patch.email);
    }
    if (patch.name !== undefined) {
      sets.push('name = ?');
      params.push(patch.name);
    }
    if (sets.length === 0) return;
    await this.store.run(`UPDATE users SET ${sets.join(', ')}, last_updated_at = ? WHERE id = ?`, [...params, now, id]);
  }

  /** Marks a user active or not; answers whether the user exists. */
  async setActive(id: string, active: boolean, now: string): Promise<boolean> {
    const { changes } = await this.store.run('UPDATE users SET active = ?, last_updated_at = ? WHERE id = ?', [active ? 1 : 0, now, id]);
    return changes > 0;
  }

  async deleteUser(id: string): Promise<void> {
    await this.store.run('DELETE FROM workspace_members WHERE user_id = ?', [id]);
    await this.store.run('DELETE FROM users WHERE id = ?', [id]);
  }

  member(workspaceId: string, userId: string): Promise<MemberRow | undefined> {
    return this.store.get<MemberRow>(
      `SELECT ${MEMBER_COLUMNS} FROM workspace_members m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = ? AND m.user_id = ?`,
      [workspaceId, userId],
    );
  }

  async members(workspaceId: string, offset: number, limit: number): Promise<{ total: number; rows: MemberRow[] }> {
    const total = (await this.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM workspace_members WHERE workspace_id = ?', [workspaceId]))?.n ?? 0;
    const rows = await this.store.all<MemberRow>(
      `SELECT ${MEMBER_COLUMNS} FROM workspace_members m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = ? ORDER BY m.created_at, m.user_id LIMIT ? OFFSET ?`,
      [workspaceId, limit, offset],
    );
    return { total, rows };
  }

  /** Every workspace the user belongs to, with the role there. */
  memberships(userId: string): Promise<{ workspace_id: string; role: string }[]> {
    return this.store.all<{ workspace_id: string; role: string }>(
      'SELECT workspace_id, role FROM workspace_members WHERE user_id = ? ORDER BY created_at, workspace_id',
      [userId],
    );
  }

  async addMember(workspaceId: string, userId: string, role: string, now: string): Promise<void> {
    await this.store.run(
      'INSERT INTO workspace_members (workspace_id, user_id, role, created_at, last_updated_at) VALUES (?, ?, ?, ?, ?)',
      [workspaceId, userId, role, now, now],
    );
  }

  async setMemberRole(workspaceId: string, userId: string, role: string, now: string): Promise<void> {
    await this.store.run('UPDATE workspace_members SET role = ?, last_updated_at = ? WHERE workspace_id = ? AND user_id = ?', [role, now, workspaceId, userId]);
  }

  async removeMember(workspaceId: string, userId: string): Promise<boolean> {
    const { changes } = await this.store.run('DELETE FROM workspace_members WHERE workspace_id = ? AND user_id = ?', [workspaceId, userId]);
    return changes > 0;
  }
}
