/**
 * The row a create or an update writes: ownership resolved (a workspace's own server, or an
 * organisation server allowed in some or all workspaces), auth checked and its secrets sealed
 * (bound to the server id) with their masks beside them. An update keeps stored secrets it does
 * not replace, including those sent back as masks.
 */
import { Errors, type Principal, type SecretBox } from '../../../core/index.js';
import type { ControlPlaneServices } from './access.js';
import { checkAuth, checkUrl, presenceOf, splitAuth } from './auth-rules.js';
import type { McpServerCatalogue } from './catalogue.js';
import { openSecrets, sealContext } from './secrets.js';
import { rowOf, type McpServer, type McpServerRow, type PublicAuth, type SecretAuth } from './record.js';
import type { AuthInput, CreateInput, SecretMappingInput, UpdateInput } from './schemas.js';

export interface RowDeps {
  catalogue: McpServerCatalogue;
  box: SecretBox;
  services: ControlPlaneServices;
  /** Set when secret references go to the environment: the prefix every referenced variable must have. */
  envPrefix(): string | undefined;
}

type Ownership = Pick<McpServerRow, 'workspace_id' | 'allow_all_workspaces' | 'allowed_workspaces'>;

async function workspaceId(ref: string, principal: Principal, services: ControlPlaneServices, field: string): Promise<string> {
  const directory = services.directory;
  const ws = directory ? await directory.workspace(ref, principal.organisationId) : { id: ref, organisation_id: principal.organisationId };
  if (!ws || (principal.organisationId !== undefined && ws.organisation_id !== principal.organisationId)) {
    throw Errors.invalidBody(field, `unknown workspace "${ref}"`);
  }
  return ws.id;
}

/** Whether a body opens a server to other workspaces (false and [] are what a workspace server answers: fine). */
function opensWorkspaces(body: Pick<CreateInput, 'allow_all_workspaces' | 'allowed_workspaces'>): boolean {
  return body.allow_all_workspaces === true || (body.allowed_workspaces?.length ?? 0) > 0;
}

/** Where a new server belongs and may be used. A workspace key's servers are its workspace's own. */
export async function ownershipFor(principal: Principal, body: CreateInput, services: ControlPlaneServices): Promise<Ownership> {
  const own = principal.workspaceId;
  const opened = opensWorkspaces(body);
  if (own !== undefined) {
    if (opened) throw Errors.forbidden(`a workspace key can only register MCP servers of its own workspace (${own})`);
    if (body.workspace_id !== undefined && await workspaceId(body.workspace_id, principal, services, 'workspace_id') !== own) {
      throw Errors.forbidden(`a workspace key can only register MCP servers of its own workspace (${own})`);
    }
    return { workspace_id: own, allow_all_workspaces: 0, allowed_workspaces: '[]' };
  }
  if (body.workspace_id !== undefined) {
    if (opened) throw Errors.invalidBody(body.allow_all_workspaces === true ? 'allow_all_workspaces' : 'allowed_workspaces', 'cannot be combined with workspace_id (a workspace server is used in its workspace only)');
    return { workspace_id: await workspaceId(body.workspace_id, principal, services, 'workspace_id'), allow_all_workspaces: 0, allowed_workspaces: '[]' };
  }
  return organisationScope(principal, body.allow_all_workspaces, body.allowed_workspaces, services);
}

/** An organisation server's workspaces: every one by default, or those listed. */
async function organisationScope(principal: Principal, allowAll: boolean | undefined, allowed: string[] | undefined, services: ControlPlaneServices): Promise<Ownership> {
  const all = allowAll ?? (allowed === undefined);
  if (all && allowed !== undefined && allowed.length > 0) throw Errors.invalidBody('allowed_workspaces', 'cannot be combined with allow_all_workspaces: true');
  const ids: string[] = [];
  for (const [i, ref] of (allowed ?? []).entries()) {
    const id = await workspaceId(ref, principal, services, `allowed_workspaces.${i}`);
    if (!ids.includes(id)) ids.push(id);
  }
  return { workspace_id: null, allow_all_workspaces: all ? 1 : 0, allowed_workspaces: JSON.stringify(ids) };
}

/** The credential columns: secrets sealed (bound to the server id), masks beside them. */
export function sealed(box: SecretBox, id: string, secret: SecretAuth): Pick<McpServerRow, 'credentials' | 'masks'> {
  const masks: { token?: string; client_secret?: string; headers?: Record<string, string> } = {};
  if (secret.token !== undefined) masks.token = mask(secret.token);
  if (secret.client_secret !== undefined) masks.client_secret = mask(secret.client_secret);
  if (secret.headers !== undefined && Object.keys(secret.headers).length > 0) {
    masks.headers = Object.fromEntries(Object.entries(secret.headers).map(([name, value]) => [name, mask(value)]));
  }
  const empty = Object.keys(masks).length === 0;
  return { credentials: empty ? null : box.encrypt(JSON.stringify(secret), sealContext(id)), masks: JSON.stringify(masks) };
}

const MASK = '********';

/** A secret as answers show it (as integrations do): the last 4 characters of a long string, nothing of the rest. */
export function mask(value: string): string {
  return value.length > 12 ? MASK + value.slice(-4) : MASK;
}

export interface CheckedAuth {
  public: PublicAuth;
  secret: SecretAuth;
}

/** `auth` of a create (none when absent), checked with the mappings. */
export function createAuth(body: CreateInput, deps: RowDeps): CheckedAuth {
  checkUrl(body.url, 'url');
  const parts = splitAuth(body.auth ?? { type: 'none' }, undefined, () => ({}));
  checkAuth(parts.public, presenceOf(parts.secret), body.secret_mappings ?? [], deps.envPrefix());
  return parts;
}

export function newRow(id: string, org: string, body: CreateInput, auth: CheckedAuth, ownership: Ownership, box: SecretBox, now: string): McpServerRow {
  return {
    id, organisation_id: org, ...ownership, slug: body.slug, name: body.name ?? body.slug, description: body.description ?? null,
    url: body.url, auth: JSON.stringify(auth.public), ...sealed(box, id, auth.secret),
    allowed_tools: body.allowed_tools ? JSON.stringify(body.allowed_tools) : null, denied_tools: JSON.stringify(body.denied_tools ?? []),
    secret_mappings: JSON.stringify(body.secret_mappings ?? []), revision: 1, created_at: now, last_updated_at: now,
  };
}

/** What an update changes of the server's credentials (managers may be barred from it). */
export function credentialChanges(current: McpServer, body: UpdateInput, next: McpServerRow): string | undefined {
  const holdsCredentials = current.sealed !== undefined || current.secretMappings.length > 0 || current.auth.type === 'oauth2_client_credentials';
  if (body.auth !== undefined && (next.credentials !== (current.sealed ?? null) || next.auth !== JSON.stringify(current.auth))) return 'auth';
  if (body.secret_mappings !== undefined && next.secret_mappings !== JSON.stringify(current.secretMappings)) return 'secret_mappings';
  // Pointing a server that holds credentials elsewhere would hand them to another host.
  if (holdsCredentials && next.url !== current.url) return 'url (it holds credentials)';
  return undefined;
}

export async function updatedRow(current: McpServer, body: UpdateInput, principal: Principal, deps: RowDeps): Promise<McpServerRow> {
  const row = rowOf(current);
  if (body.workspace_id !== undefined) {
    const same = body.workspace_id === null
      ? current.workspaceId === undefined
      : current.workspaceId !== undefined && await workspaceId(body.workspace_id, principal, deps.services, 'workspace_id') === current.workspaceId;
    if (!same) throw Errors.invalidBody('workspace_id', 'cannot change: a server stays in the workspace (or organisation) it was registered in');
  }
  if (body.slug !== undefined) {
    if (deps.catalogue.slugTaken(current.organisationId, body.slug, current.id)) throw Errors.invalidBody('slug', `"${body.slug}" is taken by another MCP server`);
    row.slug = body.slug;
  }
  if (body.name !== undefined) row.name = body.name;
  if (body.description !== undefined) row.description = body.description;
  if (body.url !== undefined) {
    checkUrl(body.url, 'url');
    row.url = body.url;
  }
  if (body.allowed_tools !== undefined) row.allowed_tools = body.allowed_tools === null ? null : JSON.stringify(body.allowed_tools);
  if (body.denied_tools !== undefined) row.denied_tools = JSON.stringify(body.denied_tools);
  if (current.workspaceId !== undefined && opensWorkspaces(body)) {
    throw Errors.invalidBody(body.allow_all_workspaces === true ? 'allow_all_workspaces' : 'allowed_workspaces', 'a workspace server is used in its workspace only');
  }
  if (current.workspaceId === undefined && (body.allow_all_workspaces !== undefined || body.allowed_workspaces !== undefined)) {
    const allowAll = body.allow_all_workspaces ?? (body.allowed_workspaces !== undefined ? false : current.allowAllWorkspaces);
    Object.assign(row, await organisationScope(principal, allowAll, body.allowed_workspaces ?? (allowAll ? undefined : [...current.allowedWorkspaces]), deps.services));
  }
  const mappings: readonly SecretMappingInput[] = body.secret_mappings ?? current.secretMappings;
  if (body.secret_mappings !== undefined) row.secret_mappings = JSON.stringify(body.secret_mappings);
  if (body.auth !== undefined) {
    const parts = splitAuth(body.auth as AuthInput, current.masks, () => openSecrets(deps.box, current));
    checkAuth(parts.public, presenceOf(parts.secret), mappings, deps.envPrefix());
    row.auth = JSON.stringify(parts.public);
    Object.assign(row, sealedOrKept(current, parts.secret, deps.box));
  } else if (body.secret_mappings !== undefined) {
    checkAuth(current.auth, presenceOf(current.masks), mappings, deps.envPrefix());
  }
  return row;
}

/** Re-sealing the same secrets gives a new ciphertext: keep the stored one when nothing changed. */
function sealedOrKept(current: McpServer, secret: SecretAuth, box: SecretBox): Pick<McpServerRow, 'credentials' | 'masks'> {
  let unchanged = false;
  try {
    unchanged = current.sealed !== undefined && sameSecrets(openSecrets(box, current), secret);
  } catch {
    // Sealed with another secret key: whatever was sent is new.
  }
  return unchanged ? { credentials: current.sealed!, masks: JSON.stringify(current.masks) } : sealed(box, current.id, secret);
}

function sameSecrets(a: SecretAuth, b: SecretAuth): boolean {
  const norm = (s: SecretAuth) => JSON.stringify([s.token ?? null, s.client_secret ?? null, Object.entries(s.headers ?? {}).sort()]);
  return norm(a) === norm(b);
}
