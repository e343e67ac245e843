/**
 * The row a create or an update writes: URL and names checked, workspaces resolved, the auth
 * secret sealed (bound to the server id).
 */
import { Errors, type Principal, type SecretBox } from '../../../core/index.js';
import type { DirectoryLookup } from './access.js';
import { openAuth, sealAuth } from './auth.js';
import type { AgentServerCatalogue } from './catalogue.js';
import { rowOf, type AgentServer, type AgentServerRow } from './record.js';
import type { UpdateInput } from './schemas.js';

export interface RowDeps {
  catalogue: AgentServerCatalogue;
  box: SecretBox;
  directory: DirectoryLookup;
}

/** The base URL as stored: http(s), no credentials, query or fragment, no trailing slash. */
export function baseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw Errors.invalidBody('url', 'must be an http(s) URL');
  }
  if (url.username !== '' || url.password !== '') throw Errors.invalidBody('url', 'must not contain credentials (put them in auth)');
  if (url.search !== '' || url.hash !== '' || value.includes('?') || value.includes('#')) {
    throw Errors.invalidBody('url', 'must be the agent\'s base URL, without a query or fragment');
  }
  return url.href.replace(/\/+$/, '');
}

export function checkSlug(catalogue: AgentServerCatalogue, org: string, slug: string, exceptId?: string): void {
  if (catalogue.slugTaken(org, slug, exceptId)) throw Errors.invalidBody('slug', `"${slug}" is taken by another agent server`);
}

export interface Placement {
  workspace_id: string | null;
  allow_all_workspaces: number;
  allowed_workspaces: string;
}

/**
 * Where a server may be used. A workspace key's servers belong to its workspace and only there; an
 * organisation key's server is usable everywhere unless it names an owning workspace or a list.
 */
export async function placement(
  principal: Principal, body: { workspace_id?: string; allow_all_workspaces?: boolean; allowed_workspaces?: string[] }, deps: RowDeps,
): Promise<Placement> {
  const own = principal.workspaceId;
  if (own !== undefined) {
    const named = body.workspace_id === undefined ? own : await deps.directory.workspaceId(body.workspace_id, principal, 'workspace_id');
    const others = body.allowed_workspaces?.some((w) => w !== own) ?? false;
    if (named !== own || body.allow_all_workspaces === true || others) {
      throw Errors.forbidden(`a workspace key can only make agent servers for its own workspace (${own})`);
    }
    return { workspace_id: own, allow_all_workspaces: 0, allowed_workspaces: '[]' };
  }
  const workspaceId = body.workspace_id === undefined ? null : await deps.directory.workspaceId(body.workspace_id, principal, 'workspace_id');
  const allowAll = body.allow_all_workspaces ?? (workspaceId === null && body.allowed_workspaces === undefined);
  if (allowAll && body.allowed_workspaces !== undefined && body.allowed_workspaces.length > 0) {
    throw Errors.invalidBody('allowed_workspaces', 'cannot be combined with allow_all_workspaces: true');
  }
  const ids: string[] = [];
  for (const [i, ref] of (body.allowed_workspaces ?? []).entries()) {
    const id = await deps.directory.workspaceId(ref, principal, `allowed_workspaces.${i}`);
    if (!ids.includes(id) && id !== workspaceId) ids.push(id);
  }
  return { workspace_id: workspaceId, allow_all_workspaces: allowAll ? 1 : 0, allowed_workspaces: JSON.stringify(ids) };
}

export async function updatedRow(current: AgentServer, body: UpdateInput, principal: Principal, deps: RowDeps): Promise<AgentServerRow> {
  const row = rowOf(current);
  if (body.workspace_id !== undefined) {
    const named = await deps.directory.workspaceId(body.workspace_id, principal, 'workspace_id');
    if (named !== (current.workspaceId ?? null)) throw Errors.invalidBody('workspace_id', 'cannot change: an agent server does not move between workspaces');
  }
  if (body.slug !== undefined) {
    checkSlug(deps.catalogue, current.organisationId, body.slug, current.id);
    row.slug = body.slug;
  }
  if (body.name !== undefined) row.name = body.name;
  if (body.description !== undefined) row.description = body.description;
  if (body.url !== undefined) row.url = baseUrl(body.url);
  if (body.allow_all_workspaces !== undefined || body.allowed_workspaces !== undefined) {
    const allowAll = body.allow_all_workspaces ?? (body.allowed_workspaces !== undefined ? false : current.allowAllWorkspaces);
    const next = await placement(principal, {
      workspace_id: current.workspaceId, allow_all_workspaces: allowAll, allowed_workspaces: body.allowed_workspaces ?? (allowAll ? undefined : [...current.allowedWorkspaces]),
    }, deps);
    row.allow_all_workspaces = next.allow_all_workspaces;
    row.allowed_workspaces = next.allowed_workspaces;
  }
  if (body.auth !== undefined) Object.assign(row, sealAuth(deps.box, current.id, body.auth, current, () => openAuth(deps.box, current)));
  return row;
}
