/**
 * The stored-guardrail routes:
 *   POST   /v1/guardrails            { name, slug?, workspace_id?, checks: [{ id, parameters }], actions? }
 *   GET    /v1/guardrails            current_page, page_size, ids (comma list of ids or slugs), workspace_id
 *   GET    /v1/guardrails/:id        one (id or slug)
 *   PUT    /v1/guardrails/:id        { name?, slug?, checks?, actions? }
 *   DELETE /v1/guardrails/:id
 * Scopes `guardrails.<create|list|read|update|delete>`; a workspace key works on its workspace's
 * guardrails and reads organisation-wide ones.
 */
import { randomUUID } from 'node:crypto';
import { Errors, requireScope, type Principal, type RequestContext, type Router } from '../../../core/index.js';
import type { Directory } from '../workspaces/contract.js';
import { json, nowIso, objectBody, pageOf, paginate, queryList, validated } from '../../../core/index.js';
import type { GuardrailCatalogue } from './catalogue.js';
import { fromRow, type Guardrail, type GuardrailRow } from './record.js';
import type { GuardrailRepo } from './repo.js';
import { masked, unmasked, validateCreate, validateUpdate, type CheckValidator } from './validate.js';

export interface RouteDeps {
  repo: GuardrailRepo;
  catalogue: GuardrailCatalogue;
  checks: CheckValidator;
  /** The directory of admin.workspaces, when loaded (looked up on use). */
  directory(): Directory | undefined;
}

const organisationOf = (p: Principal) => p.organisationId ?? 'default';

export function registerRoutes(routes: Router, deps: RouteDeps): void {
  const { repo, catalogue, checks } = deps;

  const visible = (ctx: RequestContext, principal: Principal): Guardrail => {
    const ref = ctx.params['id']!;
    const g = catalogue.find(organisationOf(principal), ref);
    if (!g || !canSee(principal, g)) throw Errors.notFound(`no guardrail "${ref}"`, 'guardrail_not_found');
    return g;
  };
  const writable = (principal: Principal, g: Guardrail) => {
    if (principal.workspaceId !== undefined && g.workspaceId !== principal.workspaceId) {
      throw Errors.forbidden(`guardrail "${g.slug}" does not belong to workspace ${principal.workspaceId}`);
    }
  };
  const slugFree = (org: string, slug: string, exceptId?: string) => {
    const other = catalogue.find(org, slug);
    if (other && other.id !== exceptId) throw Errors.invalidBody('slug', `"${slug}" is taken by another guardrail`);
  };

  routes.add({
    method: 'POST', path: '/v1/guardrails',
    handler: async (ctx) => {
      const body = validated(validateCreate, objectBody(ctx));
      const principal = requireScope(ctx, 'guardrails.create');
      const org = organisationOf(principal);
      const workspaceId = await workspaceFor(principal, body.workspace_id, deps.directory());
      checks.check(body.checks);
      const id = randomUUID();
      const slug = body.slug ?? `gr-${id.slice(0, 8)}`;
      slugFree(org, slug);
      const now = nowIso();
      const row: GuardrailRow = {
        id, organisation_id: org, workspace_id: workspaceId ?? null, slug, name: body.name,
        checks: JSON.stringify(body.checks.map((c) => ({ id: c.id, parameters: c.parameters ?? {} }))),
        actions: JSON.stringify(body.actions ?? {}), revision: 1, created_at: now, last_updated_at: now,
      };
      try {
        await repo.insert(row);
      } catch (e) {
        if (/unique/i.test((e as Error).message)) throw Errors.invalidBody('slug', `"${slug}" is taken by another guardrail`);
        throw e;
      }
      const g = fromRow(row);
      catalogue.put(g);
      return json(200, toJson(g, checks));
    },
  });

  routes.add({
    method: 'GET', path: '/v1/guardrails',
    handler: async (ctx) => {
      const principal = requireScope(ctx, 'guardrails.list');
      const page = pageOf(ctx);
      const ids = queryList(ctx, 'ids');
      const wanted = ids && new Set(ids);
      const workspace = ctx.request.query.get('workspace_id');
      const items = catalogue.list(organisationOf(principal)).filter((g) => canSee(principal, g)
        && (!wanted || wanted.has(g.id) || wanted.has(g.slug))
        && (workspace === null || g.workspaceId === workspace));
      return json(200, paginate(items.map((g) => toJson(g, checks)), page));
    },
  });

  routes.add({
    method: 'GET', path: '/v1/guardrails/:id',
    handler: async (ctx) => json(200, toJson(visible(ctx, requireScope(ctx, 'guardrails.read')), checks)),
  });

  routes.add({
    method: 'PUT', path: '/v1/guardrails/:id',
    handler: async (ctx) => {
      const body = validated(validateUpdate, objectBody(ctx));
      const principal = requireScope(ctx, 'guardrails.update');
      const current = visible(ctx, principal);
      writable(principal, current);
      if (body.slug !== undefined) slugFree(current.organisationId, body.slug, current.id);
      const nextChecks = body.checks?.map((c, i) => ({ id: c.id, parameters: unmasked(c.parameters ?? {}, current.checks[i]?.parameters) as Record<string, unknown> }));
      if (nextChecks) checks.check(nextChecks);
      const row: GuardrailRow = {
        id: current.id, organisation_id: current.organisationId, workspace_id: current.workspaceId ?? null,
        slug: body.slug ?? current.slug, name: body.name ?? current.name,
        checks: JSON.stringify(nextChecks ?? current.checks), actions: JSON.stringify(body.actions ?? current.actions),
        revision: current.revision + 1, created_at: current.createdAt, last_updated_at: nowIso(),
      };
      if (!(await repo.update(row))) {
        await catalogue.reload();
        throw Errors.invalidRequest(`guardrail "${current.slug}" was changed or deleted meanwhile: read it again`, null, 'conflict');
      }
      const g = fromRow(row);
      catalogue.put(g);
      return json(200, toJson(g, checks));
    },
  });

  routes.add({
    method: 'DELETE', path: '/v1/guardrails/:id',
    handler: async (ctx) => {
      const principal = requireScope(ctx, 'guardrails.delete');
      const current = visible(ctx, principal);
      writable(principal, current);
      await repo.delete(current.id);
      catalogue.remove(current.id);
      return json(200, { id: current.id, object: 'guardrail', deleted: true });
    },
  });
}

function canSee(principal: Principal, g: Guardrail): boolean {
  return principal.workspaceId === undefined || g.workspaceId === undefined || g.workspaceId === principal.workspaceId;
}

function toJson(g: Guardrail, checks: CheckValidator): Record<string, unknown> {
  let phases: string[];
  try {
    phases = checks.check(g.checks);
  } catch {
    phases = []; // a check that is no longer loaded: usable nowhere until it is
  }
  return {
    id: g.id,
    object: 'guardrail',
    slug: g.slug,
    name: g.name,
    organisation_id: g.organisationId,
    workspace_id: g.workspaceId ?? null,
    checks: masked(g.checks),
    actions: g.actions,
    phases,
    status: 'active',
    created_at: g.createdAt,
    last_updated_at: g.lastUpdatedAt,
  };
}

async function workspaceFor(principal: Principal, given: string | undefined, directory: Directory | undefined): Promise<string | undefined> {
  const own = principal.workspaceId;
  if (own !== undefined) {
    if (given !== undefined && given !== own) throw Errors.forbidden(`a workspace key can only store guardrails in its own workspace (${own})`);
    return own;
  }
  if (given === undefined || !directory) return given;
  const ws = await directory.workspace(given, principal.organisationId);
  if (!ws || (principal.organisationId !== undefined && ws.organisation_id !== principal.organisationId)) {
    throw Errors.invalidBody('workspace_id', `unknown workspace "${given}"`);
  }
  return ws.id;
}
