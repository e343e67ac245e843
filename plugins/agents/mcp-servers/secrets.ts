/**
 * A server's upstream secrets at use: the sealed ones opened once per server revision, then the
 * secret mappings resolved for the caller's workspace (a reference may be allowed in some
 * workspaces only) and kept for `ttlMs` (a secret manager may rotate them).
 */
import { Errors, GatewayError, type SecretBox } from '../../../core/index.js';
import type { SecretReferences } from '../../security/secret-references/contract.js';
import { mappedField } from './auth-rules.js';
import type { McpServer, SecretAuth } from './record.js';

/** The SecretBox context binding sealed secrets to their server. */
export const sealContext = (id: string) => `mcp-server:${id}`;

/** A gateway-side problem that makes a server unusable; the message says what the operator must fix. */
export function serverUnusable(server: McpServer, why: string): GatewayError {
  return Errors.misconfigured(`MCP server "${server.slug}": ${why}`, 'mcp_server_unusable');
}

export function openSecrets(box: SecretBox, server: McpServer): SecretAuth {
  if (server.sealed === undefined) return {};
  try {
    return JSON.parse(box.decrypt(server.sealed, sealContext(server.id))) as SecretAuth;
  } catch {
    throw serverUnusable(server, 'its credentials were sealed with another secret key (GW_SECRET_KEY or the data folder\'s secret.key); restore that key or store the credentials again');
  }
}

interface Resolved {
  secrets: SecretAuth;
  expiresAt: number;
}

/** Workspaces whose resolved mappings are kept per server (the oldest goes first). */
const MAX_WORKSPACES_KEPT = 1000;

export class ServerSecrets {
  readonly #opened = new WeakMap<McpServer, SecretAuth>();
  readonly #resolved = new WeakMap<McpServer, Map<string, Resolved>>();

  constructor(private readonly box: SecretBox, private readonly references: SecretReferences, private readonly ttlMs: number) {}

  /** The secrets the server authenticates with in `workspaceId` (undefined: an organisation-level caller). */
  async of(server: McpServer, workspaceId: string | undefined): Promise<SecretAuth> {
    let stored = this.#opened.get(server);
    if (!stored) this.#opened.set(server, (stored = openSecrets(this.box, server)));
    if (server.secretMappings.length === 0) return stored;
    let perWorkspace = this.#resolved.get(server);
    if (!perWorkspace) this.#resolved.set(server, (perWorkspace = new Map()));
    const key = workspaceId ?? '';
    const known = perWorkspace.get(key);
    if (known && known.expiresAt > Date.now()) return known.secrets;
    const secrets = await this.#resolve(server, stored, workspaceId);
    perWorkspace.delete(key);
    if (perWorkspace.size >= MAX_WORKSPACES_KEPT) perWorkspace.delete(perWorkspace.keys().next().value!);
    perWorkspace.set(key, { secrets, expiresAt: Date.now() + this.ttlMs });
    return secrets;
  }

  async #resolve(server: McpServer, stored: SecretAuth, workspaceId: string | undefined): Promise<SecretAuth> {
    const out: SecretAuth = { ...stored, ...(stored.headers ? { headers: { ...stored.headers } } : {}) };
    for (const [i, m] of server.secretMappings.entries()) {
      const raw = await this.references.resolve(m.secret_reference, { organisationId: server.organisationId, workspaceId });
      if (raw === undefined) {
        throw serverUnusable(server, `the secret reference "${m.secret_reference}" mapped to ${m.target_field} is not available`);
      }
      const value = m.value_format === 'json' ? jsonString(raw, server, m.target_field) : raw;
      const field = mappedField(server.auth.type, m.target_field, `secret_mappings.${i}.target_field`);
      if (field.startsWith('headers.')) (out.headers ??= {})[field.slice('headers.'.length)] = value;
      else out[field as 'token' | 'client_secret'] = value;
    }
    return out;
  }
}

/** value_format "json": the secret is a JSON document whose value is the string to use. */
function jsonString(raw: string, server: McpServer, target: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw serverUnusable(server, `the secret mapped to ${target} is not valid JSON (value_format "json")`);
  }
  if (typeof parsed !== 'string') throw serverUnusable(server, `the secret mapped to ${target} must be a JSON string (value_format "json")`);
  return parsed;
}
