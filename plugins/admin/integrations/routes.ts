/**
 * The integration routes:
 *   POST   /v1/integrations                              create
 *   GET    /v1/integrations                              list (provider, workspace_id; current_page, page_size)
 *   GET    /v1/integrations/:id                          one (id or slug)
 *   PUT    /v1/integrations/:id                          update (fields given replace the stored ones)
 *   DELETE /v1/integrations/:id                          delete
 *   GET    /v1/integrations/:id/integration-models       its models
 *   PUT    /v1/integrations/:id/integration-models       replace its models
 * Credentials are sealed before they are written and never answered (masks instead).
 */
import { randomUUID } from 'node:crypto';
import { Errors, insertRecord, saveRecord, type Principal, type RecordWriter, type RequestContext, type Router } from '../../../core/index.js';
import { authorizeWrite, canSee, organisationOf, requireOwnWorkspace, requireRead } from './access.js';
import { json, nowIso, objectBody, pageOf, paginate, validated } from '../../../core/index.js';
import { fromRow, toJson, type Integration, type IntegrationRow } from './record.js';
import type { IntegrationRepo } from './repo.js';
import { allowedIn } from './resolve.js';
import { checkContent, checkNames, rowOf, sealed, updatedRow, workspacesFor, type RowDeps } from './rows.js';
import { validateCreate, validateModels, validateUpdate } from './schemas.js';

export interface RouteDeps extends RowDeps {
  repo: IntegrationRepo;
}

export function registerRoutes(routes: Router, deps: RouteDeps): void {
  const { repo, catalogue } = deps;

  /** The integration named by the path, as the caller may see it; 404 otherwise. */
  const visible = (ctx: RequestContext, principal: Principal): Integration => {
    const ref = ctx.params['id']!;
    const integration = catalogue.find(organisationOf(principal), ref);
    if (!integration || !canSee(principal, integration)) throw Errors.notFound(`no integration "${ref}"`, 'integration_not_found');
    return integration;
  };

  routes.add({
    method: 'POST', path: '/v1/integrations',
    handler: async (ctx) => {
      const body = validated(validateCreate, objectBody(ctx));
      const principal = await authorizeWrite(ctx, 'create', deps.services);
      const org = organisationOf(principal);
      const workspaces = await workspacesFor(principal, body.allow_all_workspaces, body.allowed_workspaces, deps.services);
      const providerSlug = body.create_default_provider === false ? undefined : body.default_provider_slug ?? body.slug;
      checkNames(catalogue, org, body.slug, providerSlug);
      const configurations = body.configurations ?? {};
      checkContent(body.provider, body.key, configurations, body.secret_mappings ?? [], deps.rules, org);
      const id = randomUUID();
      const now = nowIso();
      const row: IntegrationRow = {
        id, organisation_id: org, slug: body.slug, provider_slug: providerSlug ?? null, name: body.name ?? body.slug,
        description: body.description ?? null, provider: body.provider, revision: 1, created_at: now, last_updated_at: now,
        ...workspaces, ...sealed(deps.box, deps.rules.configKeys, id, body.key, configurations),
        models: JSON.stringify(body.models ?? []),
        pricing_adjustments: body.pricing_adjustments ? JSON.stringify(body.pricing_adjustments) : null,
        secret_mappings: JSON.stringify(body.secret_mappings ?? []),
      };
      const integration = await insertRecord(writerOf(deps), row);
      return json(200, toJson(integration));
    },
  });

  routes.add({
    method: 'GET', path: '/v1/integrations',
    handler: async (ctx) => {
      const principal = requireRead(ctx, 'list');
      const page = pageOf(ctx);
      const provider = ctx.request.query.get('provider');
      const workspace = ctx.request.query.get('workspace_id');
      const items = catalogue.list(organisationOf(principal)).filter((i) => canSee(principal, i)
        && (provider === null || i.provider === provider)
        && (workspace === null || allowedIn(i, workspace)));
      return json(200, paginate(items.map(toJson), page));
    },
  });

  routes.add({
    method: 'GET', path: '/v1/integrations/:id',
    handler: async (ctx) => json(200, toJson(visible(ctx, requireRead(ctx, 'read')))),
  });

  routes.add({
    method: 'PUT', path: '/v1/integrations/:id',
    handler: async (ctx) => {
      const body = validated(validateUpdate, objectBody(ctx));
      const principal = await authorizeWrite(ctx, 'update', deps.services);
      const current = visible(ctx, principal);
      requireOwnWorkspace(principal, current);
      const next = await updatedRow(current, body, principal, deps);
      return json(200, toJson(await save(deps, current, next)));
    },
  });

  routes.add({
    method: 'DELETE', path: '/v1/integrations/:id',
    handler: async (ctx) => {
      const principal = await authorizeWrite(ctx, 'delete', deps.services);
      const current = visible(ctx, principal);
      requireOwnWorkspace(principal, current);
      await repo.delete(current.id);
      catalogue.remove(current.id);
      return json(200, { id: current.id, object: 'integration', deleted: true });
    },
  });

  routes.add({
    method: 'GET', path: '/v1/integrations/:id/integration-models',
    handler: async (ctx) => {
      const integration = visible(ctx, requireRead(ctx, 'read'));
      return json(200, { object: 'list', total_count: integration.models.length, data: integration.models });
    },
  });

  routes.add({
    method: 'PUT', path: '/v1/integrations/:id/integration-models',
    handler: async (ctx) => {
      const { models } = validated(validateModels, objectBody(ctx));
      const principal = await authorizeWrite(ctx, 'update', deps.services);
      const current = visible(ctx, principal);
      requireOwnWorkspace(principal, current);
      const seen = new Set<string>();
      models.forEach((m, i) => {
        if (seen.has(m.slug)) throw Errors.invalidBody(`models.${i}.slug`, `"${m.slug}" is listed twice`);
        seen.add(m.slug);
      });
      const saved = await save(deps, current, { ...rowOf(current), models: JSON.stringify(models) });
      return json(200, { object: 'list', total_count: saved.models.length, data: saved.models });
    },
  });
}
function save(deps: RouteDeps, current: Integration, row: IntegrationRow): Promise<Integration> {
  return saveRecord(writerOf(deps), current, row);
}

function writerOf(deps: RouteDeps): RecordWriter<Integration, IntegrationRow> {
  return { catalogue: deps.catalogue, insert: (row) => deps.repo.insert(row), update: (row) => deps.repo.update(row), fromRow, kind: 'integration' };
}
