/** Organisations and workspaces in the record store (portable SQL). */
import type { RecordStore } from '../../../core/index.js';

export interface OrganisationRow {
  id: string;
  name: string;
  settings: string;
  created_at: string;
  last_updated_at: string;
}

export interface WorkspaceRow {
  id: string;
  organisation_id: string;
  slug: string;
  name: string;
  description: string | null;
  status: string;
  is_default: number;
  settings: string;
  created_at: string;
  last_updated_at: string;
  archived_at: string | null;
  default_config_id: string | null;
}

export interface WorkspaceChanges {
  name?: string;
  slug?: string;
  description?: string | null;
  default_config_id?: string | null;
}

export class WorkspaceRepo {
  constructor(private readonly store: RecordStore) {}

  organisations(): Promise<OrganisationRow[]> {
    return this.store.all<OrganisationRow>('SELECT id, name, settings, created_at, last_updated_at FROM organisations ORDER BY created_at, id');
  }

  workspaces(): Promise<WorkspaceRow[]> {
    return this.store.all<WorkspaceRow>(
      'SELECT id, organisation_id, slug, name, description, status, is_default, settings, created_at, last_updated_at, archived_at, default_config_id '
      + 'FROM workspaces ORDER BY created_at, id',
    );
  }

  /**
   * The first organisation and its default workspace, unless there already (instances booting
   * together on one store each try: the first one's rows stand, the others' inserts do nothing).
   */
  async seedOrganisation(id: string, name: string, workspaceId: string, now: string): Promise<void> {
    await this.store.run('INSERT INTO organisations (id, name, created_at, last_updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING', [id, name, now, now]);
    await this.store.run(
      'INSERT INTO workspaces (id, organisation_id, slug, name, description, is_default, created_at, last_updated_at) '
      + "VALUES (?, ?, 'default', 'Default workspace', NULL, 1, ?, ?) ON CONFLICT (organisation_id, slug) DO NOTHING",
      [workspaceId, id, now, now],
    );
  }

  async insertOrganisation(id: string, name: string, now: string): Promise<void> {
    await this.store.run('INSERT INTO organisations (id, name, created_at, last_updated_at) VALUES (?, ?, ?, ?)', [id, name, now, now]);
  }

  async insertWorkspace(row: Pick<WorkspaceRow, 'id' | 'organisation_id' | 'slug' | 'name' | 'description' | 'is_default' | 'created_at' | 'default_config_id'>): Promise<void> {
    await this.store.run(
      'INSERT INTO workspaces (id, organisation_id, slug, name, description, is_default, created_at, last_updated_at, default_config_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [row.id, row.organisation_id, row.slug, row.name, row.description, row.is_default, row.created_at, row.created_at, row.default_config_id],
    );
  }

  async updateWorkspace(id: string, changes: WorkspaceChanges, now: string): Promise<void> {
    const sets = ['last_updated_at = ?'];
    const params: unknown[] = [now];
    for (const key of ['name', 'slug', 'description', 'default_config_id'] as const) {
      if (changes[key] === undefined) continue;
      sets.push(`${key} = ?`);
      params.push(changes[key]);
    }
    await this.store.run(`UPDATE workspaces SET ${sets.join(', ')} WHERE id = ?`, [...params, id]);
  }

  async archiveWorkspace(id: string, now: string): Promise<void> {
    await this.store.run("UPDATE workspaces SET status = 'archived', archived_at = ?, last_updated_at = ? WHERE id = ?", [now, now, id]);
  }

  async setOrganisationSettings(id: string, settings: Record<string, unknown>, now: string): Promise<void> {
    await this.store.run('UPDATE organisations SET settings = ?, last_updated_at = ? WHERE id = ?', [JSON.stringify(settings), now, id]);
  }

  async setWorkspaceSettings(id: string, settings: Record<string, unknown>, now: string): Promise<void> {
    await this.store.run('UPDATE workspaces SET settings = ?, last_updated_at = ? WHERE id = ?', [JSON.stringify(settings), now, id]);
  }
}
