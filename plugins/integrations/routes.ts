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
import { Errors, type Principal, type RequestContext, type Router, type Validator } from '../../core/index.js';
import {
  authorizeWrite, canSee, organisationOf, requireOwnWorkspace, requireRead, type ControlPlaneServices,
} from './access.js';
import { json, nowIso, objectBody, pageOf, paginate } from './admin-http.js';
import type { IntegrationCatalogue } from './catalogue.js';
import { sealContext, integrationUnusable, type SecretBox } from './credentials.js';
import { isMask, mask, SECRET_CONFIGURATION_FIELDS } from './fields.js';
import { fromRow, toJson, type Integration, type IntegrationRow, type SecretPart } from './record.js';
import type { IntegrationRepo } from './repo.js';
import { allowedIn } from './resolve.js';
import { validateCreate, validateModels, validateUpdate, type CreateInput, type ModelInput, type UpdateInput } from './schemas.js';
import { checkConfigurations, checkProviderTarget, checkSecretMappings, type ContentRules } from './validate.js';

export interface RouteDeps {
  repo: IntegrationRepo;
  catalogue: IntegrationCatalogue;
  box: SecretBox;
  services: ControlPlaneServices;
  rules: ContentRules;
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
      const body = parse<CreateInput>(validateCreate, objectBody(ctx));
      const principal = await authorizeWrite(ctx, 'create', deps.services);
      const org = organisationOf(principal);
      const workspaces = await workspacesFor(principal, body.allow_all_workspaces, body.allowed_workspaces, deps.services);
      const providerSlug = body.create_default_provider === false ? undefined : body.default_provider_slug ?? body.slug;
      checkNames(catalogue, org, body.slug, providerSlug);
      const configurations = body.configurations ?? {};
      checkContent(body.provider, body.key, configurations, body.secret_mappings ?? [], deps.rules);
      const id = randomUUID();
      const now = nowIso();
      const row: IntegrationRow = {
        id, organisation_id: org, slug: body.slug, provider_slug: providerSlug ?? null, name: body.name ?? body.slug,
        description: body.description ?? null, provider: body.provider, revision: 1, created_at: now, last_updated_at: now,
        ...workspaces, ...sealed(deps.box, id, body.key, configurations),
        models: JSON.stringify(body.models ?? []),
        pricing_adjustments: body.pricing_adjustments ? JSON.stringify(body.pricing_adjustments) : null,
        secret_mappings: JSON.stringify(body.secret_mappings ?? []),
      };
      try {
        await repo.insert(row);
      } catch (e) {
        // Another instance took the slug first (the store's unique constraint).
        if (catalogue.slugTaken(org, body.slug) || /unique/i.test((e as Error).message)) throw Errors.invalidBody('slug', `"${body.slug}" is taken by another integration`);
        throw e;
      }
      const integration = fromRow(row);
      catalogue.put(integration);
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
      const body = parse<UpdateInput>(validateUpdate, objectBody(ctx));
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
      const { models } = parse<{ models: ModelInput[] }>(validateModels, objectBody(ctx));
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

function parse<T>(validator: Validator<unknown>, body: Record<string, unknown>): T {
  if (!validator.check(body)) {
    const issue = validator.issues(body)[0]!;
    throw Errors.invalidBody(issue.path, issue.rule);
  }
  return body as T;
}

function checkNames(catalogue: IntegrationCatalogue, org: string, slug: string, providerSlug: string | undefined, exceptId?: string): void {
  if (catalogue.slugTaken(org, slug, exceptId)) throw Errors.invalidBody('slug', `"${slug}" is taken by another integration`);
  if (providerSlug !== undefined && providerSlug !== slug && catalogue.slugTaken(org, providerSlug, exceptId)) {
    throw Errors.invalidBody('default_provider_slug', `"${providerSlug}" is taken by another integration`);
  }
}

function checkContent(
  provider: string, key: string | undefined, configurations: Record<string, unknown>,
  mappings: NonNullable<CreateInput['secret_mappings']>, rules: ContentRules,
): void {
  checkConfigurations(configurations);
  checkSecretMappings(mappings, rules);
  checkProviderTarget(provider, key, configurations, mappings, rules);
}

/**
 * Where an integration may be used. A workspace key's integrations are limited to its workspace;
 * an organisation key's default is every workspace. Workspace slugs become ids when the directory
 * service is there.
 */
async function workspacesFor(
  principal: Principal, allowAll: boolean | undefined, allowed: string[] | undefined, services: ControlPlaneServices,
): Promise<Pick<IntegrationRow, 'allow_all_workspaces' | 'allowed_workspaces'>> {
  const own = principal.workspaceId;
  if (own !== undefined) {
    if (allowAll === true || (allowed !== undefined && (allowed.length !== 1 || allowed[0] !== own))) {
      throw Errors.forbidden(`a workspace key can only make integrations for its own workspace (${own})`);
    }
    return { allow_all_workspaces: 0, allowed_workspaces: JSON.stringify([own]) };
  }
  const all = allowAll ?? (allowed === undefined);
  if (all && allowed !== undefined && allowed.length > 0) {
    throw Errors.invalidBody('allowed_workspaces', 'cannot be combined with allow_all_workspaces: true');
  }
  const ids: string[] = [];
  const directory = services.directory;
  for (const [i, ref] of (allowed ?? []).entries()) {
    const ws = directory ? await directory.workspace(ref) : { id: ref, organisation_id: principal.organisationId };
    if (!ws || (principal.organisationId !== undefined && ws.organisation_id !== principal.organisationId)) {
      throw Errors.invalidBody(`allowed_workspaces.${i}`, `unknown workspace "${ref}"`);
    }
    if (!ids.includes(ws.id)) ids.push(ws.id);
  }
  return { allow_all_workspaces: all ? 1 : 0, allowed_workspaces: JSON.stringify(ids) };
}

/** The credential columns: secret fields sealed (bound to the integration id), masks beside them. */
function sealed(box: SecretBox, id: string, key: string | undefined, configurations: Record<string, unknown>) {
  const plain: Record<string, unknown> = {};
  const secret: Record<string, unknown> = {};
  const masks: Record<string, string> = {};
  for (const field in configurations) {
    if (SECRET_CONFIGURATION_FIELDS.has(field)) {
      secret[field] = configurations[field];
      masks[field] = mask(configurations[field]);
    } else {
      plain[field] = configurations[field];
    }
  }
  const part: SecretPart = {};
  if (key !== undefined) part.key = key;
  if (Object.keys(secret).length > 0) part.configurations = secret;
  const hasSecret = part.key !== undefined || part.configurations !== undefined;
  return {
    configurations: JSON.stringify(plain),
    credentials: hasSecret ? box.encrypt(JSON.stringify(part), sealContext(id)) : null,
    masks: JSON.stringify({ ...(key !== undefined ? { key: mask(key) } : {}), configurations: masks }),
  };
}

function rowOf(i: Integration): IntegrationRow {
  return {
    id: i.id, organisation_id: i.organisationId, slug: i.slug, provider_slug: i.providerSlug ?? null, name: i.name,
    description: i.description ?? null, provider: i.provider, configurations: JSON.stringify(i.configurations),
    credentials: i.sealed ?? null, masks: JSON.stringify(i.masks), allow_all_workspaces: i.allowAllWorkspaces ? 1 : 0,
    allowed_workspaces: JSON.stringify(i.allowedWorkspaces), models: JSON.stringify(i.models),
    pricing_adjustments: i.pricing ? JSON.stringify(i.pricing) : null, secret_mappings: JSON.stringify(i.secretMappings),
    revision: i.revision, created_at: i.createdAt, last_updated_at: i.lastUpdatedAt,
  };
}

/** The stored secret part, opened (only when an update keeps some of it). */
function openSecret(box: SecretBox, i: Integration): SecretPart {
  if (i.sealed === undefined) return {};
  try {
    return JSON.parse(box.decrypt(i.sealed, sealContext(i.id))) as SecretPart;
  } catch {
    throw integrationUnusable(`integration "${i.slug}" cannot be opened with this gateway's secret key: send key and every secret configuration field again`);
  }
}

async function updatedRow(current: Integration, body: UpdateInput, principal: Principal, deps: RouteDeps): Promise<IntegrationRow> {
  const row = rowOf(current);
  const org = current.organisationId;
  const slug = body.slug ?? current.slug;
  const wantsProvider = body.create_default_provider ?? (current.providerSlug !== undefined || body.default_provider_slug !== undefined);
  const providerSlug = wantsProvider ? body.default_provider_slug ?? (current.providerSlug === current.slug ? slug : current.providerSlug ?? slug) : undefined;
  checkNames(deps.catalogue, org, slug, providerSlug, current.id);
  Object.assign(row, { slug, provider_slug: providerSlug ?? null });
  if (body.name !== undefined) row.name = body.name;
  if (body.description !== undefined) row.description = body.description;
  if (body.provider !== undefined) row.provider = body.provider;
  if (body.allow_all_workspaces !== undefined || body.allowed_workspaces !== undefined) {
    const allowAll = body.allow_all_workspaces ?? (body.allowed_workspaces !== undefined ? false : current.allowAllWorkspaces);
    Object.assign(row, await workspacesFor(principal, allowAll, body.allowed_workspaces ?? (allowAll ? undefined : [...current.allowedWorkspaces]), deps.services));
  }
  if (body.models !== undefined) row.models = JSON.stringify(body.models);
  if (body.pricing_adjustments !== undefined) row.pricing_adjustments = JSON.stringify(body.pricing_adjustments);
  if (body.secret_mappings !== undefined) row.secret_mappings = JSON.stringify(body.secret_mappings);

  const touchesSecrets = body.key !== undefined || body.configurations !== undefined;
  if (touchesSecrets || body.provider !== undefined || body.secret_mappings !== undefined) {
    // The result must still make a routable target: checked with the secrets it keeps.
    const { key, configurations } = secretsKept(current, body, deps.box);
    checkContent(row.provider, key, configurations, JSON.parse(row.secret_mappings), deps.rules);
    if (touchesSecrets) Object.assign(row, sealed(deps.box, current.id, key, configurations));
  }
  return row;
}

/** Key and configurations after an update; a value equal to its mask (a GET → PUT round trip) keeps the stored secret. */
function secretsKept(current: Integration, body: UpdateInput, box: SecretBox): { key: string | undefined; configurations: Record<string, unknown> } {
  let opened: SecretPart | undefined;
  const secret = () => (opened ??= openSecret(box, current));
  const key = body.key === undefined || isMask(body.key, current.masks.key) ? (current.masks.key !== undefined ? secret().key : undefined) : body.key;
  if (body.configurations === undefined) {
    const hasSecrets = Object.keys(current.masks.configurations).length > 0;
    return { key, configurations: { ...current.configurations, ...(hasSecrets ? secret().configurations : {}) } };
  }
  const configurations: Record<string, unknown> = {};
  const given = body.configurations as Record<string, unknown>;
  for (const field in given) {
    const shown = current.masks.configurations[field];
    configurations[field] = shown !== undefined && isMask(given[field], shown) ? secret().configurations?.[field] : given[field];
  }
  return { key, configurations };
}

async function save(deps: RouteDeps, current: Integration, row: IntegrationRow): Promise<Integration> {
  row.revision = current.revision + 1;
  row.last_updated_at = nowIso();
  let ok: boolean;
  try {
    ok = await deps.repo.update(row);
  } catch (e) {
    if (/unique/i.test((e as Error).message)) throw Errors.invalidBody('slug', `"${row.slug}" is taken by another integration`);
    throw e;
  }
  if (!ok) {
    await deps.catalogue.reload();
    throw Errors.invalidRequest(`integration "${current.slug}" was changed or deleted meanwhile: read it again`, null, 'conflict');
  }
  const saved = fromRow(row);
  deps.catalogue.put(saved);
  return saved;
}
