/** The `guardrails` table; portable SQL (SQLite, PostgreSQL), JSON as TEXT. */
import type { RecordStore } from '../../../core/index.js';
import { fromRow, type Guardrail, type GuardrailRow } from './record.js';

const MIGRATIONS = [
  `CREATE TABLE guardrails (
     id TEXT PRIMARY KEY,
     organisation_id TEXT NOT NULL,
     workspace_id TEXT,
     slug TEXT NOT NULL,
     name TEXT NOT NULL,
     checks TEXT NOT NULL,
     actions TEXT NOT NULL,
     revision INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     last_updated_at TEXT NOT NULL,
     UNIQUE (organisation_id, slug)
   )`,
];

const COLUMNS = 'id, organisation_id, workspace_id, slug, name, checks, actions, revision, created_at, last_updated_at';

export class GuardrailRepo {
  constructor(private readonly store: RecordStore) {}

  init(): Promise<void> {
    return this.store.migrate('admin.guardrails', MIGRATIONS);
  }

  async all(): Promise<Guardrail[]> {
    return (await this.store.all<GuardrailRow>(`SELECT ${COLUMNS} FROM guardrails`)).map(fromRow);
  }

  async insert(row: GuardrailRow): Promise<void> {
    await this.store.run(`INSERT INTO guardrails (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
      row.id, row.organisation_id, row.workspace_id, row.slug, row.name, row.checks, row.actions, row.revision, row.created_at, row.last_updated_at,
    ]);
  }

  /** Writes the row unless somebody changed it since `revision - 1`. */
  async update(row: GuardrailRow): Promise<boolean> {
    const { changes } = await this.store.run(
      'UPDATE guardrails SET slug = ?, name = ?, checks = ?, actions = ?, revision = ?, last_updated_at = ? WHERE id = ? AND revision = ?',
      [row.slug, row.name, row.checks, row.actions, row.revision, row.last_updated_at, row.id, row.revision - 1],
    );
    return changes === 1;
  }

  async delete(id: string): Promise<boolean> {
    const { changes } = await this.store.run('DELETE FROM guardrails WHERE id = ?', [id]);
    return changes === 1;
  }
}
