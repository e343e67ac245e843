/**
 * Connections and sessions in the record store (SQLite or PostgreSQL), so every instance of a
 * fleet knows every session: a session minted on one instance is served by any other, and one
 * ended anywhere answers 404 everywhere.
 *
 *   mcp_connections  a caller's (person or key) standing with one server: its sealed upstream
 *                    token for `user_bearer` servers, when it was made and last used
 *   mcp_sessions     the gateway's Mcp-Session-Id → the upstream's, per connection
 */
import type { RecordQueries, RecordStore } from '../../../core/index.js';

const MIGRATIONS = [
  `CREATE TABLE mcp_connections (
     id TEXT PRIMARY KEY,
     server_id TEXT NOT NULL,
     organisation_id TEXT NOT NULL,
     workspace_id TEXT,
     owner TEXT NOT NULL,
     user_id TEXT,
     api_key_id TEXT,
     credential TEXT,
     created_at TEXT NOT NULL,
     last_used_at TEXT NOT NULL,
     UNIQUE (server_id, owner)
   )`,
  `CREATE TABLE mcp_sessions (
     id TEXT PRIMARY KEY,
     connection_id TEXT NOT NULL,
     upstream_session_id TEXT,
     protocol_version TEXT,
     server_revision INTEGER NOT NULL,
     created_at TEXT NOT NULL
   )`,
  'CREATE INDEX mcp_sessions_connection ON mcp_sessions (connection_id)',
];

export interface ConnectionRow {
  id: string;
  server_id: string;
  organisation_id: string;
  workspace_id: string | null;
  owner: string;
  user_id: string | null;
  api_key_id: string | null;
  credential: string | null;
  created_at: string;
  last_used_at: string;
}

export interface SessionRow {
  id: string;
  connection_id: string;
  upstream_session_id: string | null;
  protocol_version: string | null;
  server_revision: number;
  created_at: string;
}

export interface ListedConnection extends ConnectionRow {
  sessions: number;
}

/** Which connections a list or a delete is about (all of a server's, or one owner's, within workspaces). */
export interface ConnectionFilter {
  serverId: string;
  organisationId: string;
  userId?: string;
  apiKeyId?: string;
  /** Only connections made in these workspaces (a workspace manager's); undefined: any. */
  workspaceIds?: readonly string[];
}

const CONNECTION_COLUMNS = 'id, server_id, organisation_id, workspace_id, owner, user_id, api_key_id, credential, created_at, last_used_at';

export class McpRepo {
  constructor(private readonly store: RecordStore) {}

  init(): Promise<void> {
    return this.store.migrate('agents.mcp-gateway', MIGRATIONS);
  }

  /** The owner's connection with the server, made now when it has none (two racing callers get the same one). */
  async connection(row: ConnectionRow): Promise<ConnectionRow> {
    await this.store.run(
      `INSERT INTO mcp_connections (${CONNECTION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (server_id, owner) DO NOTHING`,
      [row.id, row.server_id, row.organisation_id, row.workspace_id, row.owner, row.user_id, row.api_key_id, row.credential, row.created_at, row.last_used_at],
    );
    const found = await this.store.get<ConnectionRow>(`SELECT ${CONNECTION_COLUMNS} FROM mcp_connections WHERE server_id = ? AND owner = ?`, [row.server_id, row.owner]);
    if (!found) throw new Error('connection row vanished after insert');
    return found;
  }

  async setCredential(connectionId: string, sealed: string | null): Promise<void> {
    await this.store.run('UPDATE mcp_connections SET credential = ? WHERE id = ?', [sealed, connectionId]);
  }

  async touch(connectionId: string, at: string): Promise<void> {
    await this.store.run('UPDATE mcp_connections SET last_used_at = ? WHERE id = ?', [at, connectionId]);
  }

  async addSession(row: SessionRow): Promise<void> {
    await this.store.run(
      'INSERT INTO mcp_sessions (id, connection_id, upstream_session_id, protocol_version, server_revision, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      [row.id, row.connection_id, row.upstream_session_id, row.protocol_version, row.server_revision, row.created_at],
    );
  }

  /** A session with its connection, in one query (every message of a session looks it up). */
  async liveSession(id: string): Promise<{ session: SessionRow; connection: ConnectionRow } | undefined> {
    const row = await this.store.get<ConnectionRow & { s_id: string; connection_id: string; upstream_session_id: string | null; protocol_version: string | null; server_revision: number | string; s_created_at: string }>(
      `SELECT ${CONNECTION_COLUMNS.split(', ').map((c) => `c.${c}`).join(', ')},
         s.id AS s_id, s.connection_id, s.upstream_session_id, s.protocol_version, s.server_revision, s.created_at AS s_created_at
       FROM mcp_sessions s JOIN mcp_connections c ON c.id = s.connection_id WHERE s.id = ?`,
      [id],
    );
    if (!row) return undefined;
    const { s_id, connection_id, upstream_session_id, protocol_version, server_revision, s_created_at, ...connection } = row;
    return {
      session: { id: s_id, connection_id, upstream_session_id, protocol_version, server_revision: Number(server_revision), created_at: s_created_at },
      connection,
    };
  }

  /** Ends one session; false when it was already gone. */
  async endSession(id: string): Promise<boolean> {
    const { changes } = await this.store.run('DELETE FROM mcp_sessions WHERE id = ?', [id]);
    return changes > 0;
  }

  async count(filter: ConnectionFilter): Promise<number> {
    const { where, params } = whereOf(filter);
    const row = await this.store.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM mcp_connections c WHERE ${where}`, params);
    return Number(row?.n ?? 0);
  }

  list(filter: ConnectionFilter, offset: number, limit: number): Promise<ListedConnection[]> {
    const { where, params } = whereOf(filter);
    return this.store.all<ListedConnection>(
      `SELECT ${CONNECTION_COLUMNS.split(', ').map((c) => `c.${c}`).join(', ')},
         (SELECT COUNT(*) FROM mcp_sessions s WHERE s.connection_id = c.id) AS sessions
       FROM mcp_connections c WHERE ${where} ORDER BY c.created_at, c.id LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
  }

  /**
   * Deletes the filter's connections and their sessions in one transaction; answers what it
   * deleted (the sessions' upstream ids and the connections' tokens, to end them upstream too).
   */
  async deleteConnections(filter: ConnectionFilter): Promise<{ connections: ConnectionRow[]; sessions: SessionRow[] }> {
    const { where, params } = whereOf(filter);
    return this.store.transaction(async (tx: RecordQueries) => {
      const connections = await tx.all<ConnectionRow>(`SELECT ${CONNECTION_COLUMNS} FROM mcp_connections c WHERE ${where}`, params);
      const sessions: SessionRow[] = [];
      for (const c of connections) {
        sessions.push(...await tx.all<SessionRow>('SELECT id, connection_id, upstream_session_id, protocol_version, server_revision, created_at FROM mcp_sessions WHERE connection_id = ?', [c.id]));
        await tx.run('DELETE FROM mcp_sessions WHERE connection_id = ?', [c.id]);
        await tx.run('DELETE FROM mcp_connections WHERE id = ?', [c.id]);
      }
      return { connections, sessions };
    });
  }
}

function whereOf(f: ConnectionFilter): { where: string; params: unknown[] } {
  const clauses = ['c.server_id = ?', 'c.organisation_id = ?'];
  const params: unknown[] = [f.serverId, f.organisationId];
  if (f.userId !== undefined) {
    clauses.push('c.user_id = ?');
    params.push(f.userId);
  }
  if (f.apiKeyId !== undefined) {
    clauses.push('c.api_key_id = ?');
    params.push(f.apiKeyId);
  }
  if (f.workspaceIds !== undefined) {
    if (f.workspaceIds.length === 0) clauses.push('1 = 0');
    else {
      clauses.push(`c.workspace_id IN (${f.workspaceIds.map(() => '?').join(', ')})`);
      params.push(...f.workspaceIds);
    }
  }
  return { where: clauses.join(' AND '), params };
}
