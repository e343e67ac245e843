/**
 * Connections and sessions as the endpoint uses them. A connection belongs to a person (the user
 * of a workspace-user key or of a JWT) or, for service keys, to the key; it keeps the caller's own
 * upstream token (sealed) for `user_bearer` servers. A session is the gateway's own Mcp-Session-Id
 * mapped to the upstream's; it answers only its own caller on its own server, and a server
 * changed since (a new revision: another URL or credential) ends it, so the client initialises again.
 */
import { randomBytes } from 'node:crypto';
import { nowIso, type Principal, type SecretBox } from '../../../core/index.js';
import type { McpServerInfo } from '../mcp-servers/contract.js';
import type { ConnectionRow, McpRepo, SessionRow } from './repo.js';

/** last_used_at is written at most this often per connection (a busy session would write per message). */
const TOUCH_EVERY_MS = 60_000;

export interface Owner {
  owner: string;
  userId: string | null;
  apiKeyId: string | null;
}

export function ownerOf(principal: Principal): Owner {
  if (principal.userId) return { owner: `user:${principal.userId}`, userId: principal.userId, apiKeyId: null };
  return { owner: `key:${principal.keyId}`, userId: null, apiKeyId: principal.keyId };
}

export interface LiveSession {
  session: SessionRow;
  connection: ConnectionRow;
}

export class Sessions {
  readonly #touched = new Map<string, number>();

  constructor(private readonly repo: McpRepo, private readonly box: SecretBox) {}

  /** The caller's connection with the server (made on first use). */
  connect(server: McpServerInfo, principal: Principal): Promise<ConnectionRow> {
    const { owner, userId, apiKeyId } = ownerOf(principal);
    const at = nowIso();
    this.#touched.set(`${server.id}\n${owner}`, Date.now());
    return this.repo.connection({
      id: randomId('mcpc_'), server_id: server.id, organisation_id: server.organisationId, workspace_id: principal.workspaceId ?? null,
      owner, user_id: userId, api_key_id: apiKeyId, credential: null, created_at: at, last_used_at: at,
    });
  }

  async keepToken(connection: ConnectionRow, token: string): Promise<void> {
    const sealed = this.box.encrypt(token, context(connection.id));
    await this.repo.setCredential(connection.id, sealed);
    connection.credential = sealed;
  }

  /** The connection's own upstream token; undefined when it has none (or it no longer opens). */
  tokenOf(connection: ConnectionRow): string | undefined {
    if (!connection.credential) return undefined;
    try {
      return this.box.decrypt(connection.credential, context(connection.id));
    } catch {
      return undefined;
    }
  }

  async start(connection: ConnectionRow, server: McpServerInfo, upstreamSession: string | null, protocolVersion: string | null): Promise<string> {
    const id = randomId('');
    await this.repo.addSession({
      id, connection_id: connection.id, upstream_session_id: upstreamSession, protocol_version: protocolVersion,
      server_revision: server.revision, created_at: nowIso(),
    });
    return id;
  }

  /** The caller's live session with this server, or undefined (unknown, ended, another's, stale). */
  async find(id: string, server: McpServerInfo, principal: Principal): Promise<LiveSession | undefined> {
    const live = await this.repo.liveSession(id);
    if (!live) return undefined;
    const { session, connection } = live;
    if (connection.server_id !== server.id || connection.owner !== ownerOf(principal).owner) return undefined;
    if (session.server_revision !== server.revision) {
      await this.repo.endSession(id);
      return undefined;
    }
    this.#touch(connection);
    return { session, connection };
  }

  end(id: string): Promise<boolean> {
    return this.repo.endSession(id);
  }

  #touch(connection: ConnectionRow): void {
    const key = `${connection.server_id}\n${connection.owner}`;
    const now = Date.now();
    if (now - (this.#touched.get(key) ?? 0) < TOUCH_EVERY_MS) return;
    this.#touched.set(key, now);
    if (this.#touched.size > 10_000) this.#touched.clear();
    // Off the request path: a lost update only makes last_used_at older.
    void this.repo.touch(connection.id, nowIso()).catch(() => undefined);
  }
}

/** Sealed tokens are bound to their connection: a row copied onto another does not open. */
function context(connectionId: string): string {
  return `mcp-connection:${connectionId}`;
}

/** Unguessable ids (session ids are bearer-like: whoever holds one speaks in that session, with its caller's key). */
function randomId(prefix: string): string {
  return prefix + randomBytes(24).toString('base64url');
}
