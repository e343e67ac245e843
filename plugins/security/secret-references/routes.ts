/**
 * The secret reference routes:
 *   POST         /v1/secret-references        create
 *   GET          /v1/secret-references        list (manager, workspace_id; current_page, page_size)
 *   GET          /v1/secret-references/:id    one (id or slug)
 *   PUT | PATCH  /v1/secret-references/:id    update (fields given replace the stored ones)
 *   DELETE       /v1/secret-references/:id    delete
 * The manager's secret settings are sealed before they are written and never answered.
 */
import { randomUUID } from 'node:crypto';
import { Errors, insertRecord, json, nowIso, saveRecord, type RecordWriter, objectBody, pageOf, paginate, validated, type Principal, type RequestContext, type Router } from '../../../core/index.js';
import { authorizeWrite, canSee, organisationOf, requireOwnWorkspace, requireRead } from './access.js';
import type { SecretReferenceCatalogue } from './catalogue.js';
import { MANAGER_IDS, type ManagerId } from './managers/index.js';
import { allowedIn, fromRow, rowOf, toJson, type SecretReference, type SecretReferenceRow } from './record.js';
import type { SecretReferenceRepo } from './repo.js';
import { checkManagerConfig, checkPath, configKept, sealedConfig, workspacesFor, type RowRules } from './rows.js';
import { validateCreate, validateUpdate, type UpdateInput } from './schemas.js';

export interface RouteDeps extends RowRules {
  repo: SecretReferenceRepo;
  catalogue: SecretReferenceCatalogue;
}

const PATH = '/v1/secret-references';

export function registerRoutes(routes: Router, deps: RouteDeps): void {
  const { repo, catalogue } = deps;

  /** The reference named by the path, as the caller may see it; 404 otherwise. */
  const visible = (ctx: RequestContext, principal: Principal): SecretReference => {
    const ref = ctx.params['id']!;
    const reference = catalogue.find(organisationOf(principal), ref);
    if (!reference || !canSee(principal, reference)) throw Errors.notFound(`no secret reference "${ref}"`, 'secret_reference_not_found');
    return reference;
  };

  routes.add({
    method: 'POST', path: PATH,
    handler: async (ctx) => {
      const body = validated(validateCreate, objectBody(ctx));
      const principal = authorizeWrite(ctx, 'create');
      const org = organisationOf(principal);
      const manager = body.manager as ManagerId;
      const config = body.manager_config ?? {};
      checkManagerConfig(manager, config);
      checkPath(manager, body.secret_path, deps.envPrefix);
      if (catalogue.slugTaken(org, body.slug)) throw Errors.invalidBody('slug', `"${body.slug}" is taken by another secret reference`);
      const workspaces = await workspacesFor(principal, body.allow_all_workspaces, body.allowed_workspaces, deps);
      const id = randomUUID();
      const now = nowIso();
      const row: SecretReferenceRow = {
        id, organisation_id: org, slug: body.slug, name: body.name ?? body.slug, description: body.description ?? null, manager,
        ...sealedConfig(deps.box, id, manager, config), secret_path: body.secret_path, secret_key: body.secret_key ?? null,
        ...workspaces, revision: 1, created_at: now, last_updated_at: now,
      };
      const reference = await insertRecord(writerOf(deps), row);
      return json(200, toJson(reference));
    },
  });

  routes.add({
    method: 'GET', path: PATH,
    handler: async (ctx) => {
      const principal = requireRead(ctx, 'list');
      const page = pageOf(ctx);
      const manager = ctx.request.query.get('manager');
      if (manager !== null && !(MANAGER_IDS as readonly string[]).includes(manager)) {
        throw Errors.invalidRequest(`query.manager: must be one of ${MANAGER_IDS.join(', ')}`, 'manager', 'invalid_query');
      }
      const workspace = ctx.request.query.get('workspace_id');
      const items = catalogue.list(organisationOf(principal)).filter((r) => canSee(principal, r)
        && (manager === null || r.manager === manager)
        && (workspace === null || allowedIn(r, workspace)));
      return json(200, paginate(items.map(toJson), page));
    },
  });

  routes.add({
    method: 'GET', path: `${PATH}/:id`,
    handler: async (ctx) => json(200, toJson(visible(ctx, requireRead(ctx, 'read')))),
  });

  for (const method of ['PUT', 'PATCH'] as const) {
    routes.add({
      method, path: `${PATH}/:id`,
      handler: async (ctx) => {
        const body = validated(validateUpdate, objectBody(ctx));
        const principal = authorizeWrite(ctx, 'update');
        const current = visible(ctx, principal);
        requireOwnWorkspace(principal, current);
        return json(200, toJson(await save(deps, current, await updatedRow(current, body, principal, deps))));
      },
    });
  }

  routes.add({
    method: 'DELETE', path: `${PATH}/:id`,
    handler: async (ctx) => {
      const principal = authorizeWrite(ctx, 'delete');
      const current = visible(ctx, principal);
      requireOwnWorkspace(principal, current);
      await repo.delete(current.id);
      catalogue.remove(current.id);
      return json(200, { id: current.id, object: 'secret_reference', deleted: true });
    },
  });
}

async function updatedRow(current: SecretReference, body: UpdateInput, principal: Principal, deps: RouteDeps): Promise<SecretReferenceRow> {
  const row = rowOf(current);
  const org = current.organisationId;
  if (body.slug !== undefined && deps.catalogue.slugTaken(org, body.slug, current.id)) {
    throw Errors.invalidBody('slug', `"${body.slug}" is taken by another secret reference`);
  }
  if (body.slug !== undefined) row.slug = body.slug;
  if (body.name !== undefined) row.name = body.name;
  if (body.description !== undefined) row.description = body.description;
  if (body.secret_key !== undefined) row.secret_key = body.secret_key;
  if (body.secret_path !== undefined) row.secret_path = body.secret_path;
  const manager = (body.manager ?? current.manager) as ManagerId;
  if (manager !== current.manager && body.manager_config === undefined) {
    throw Errors.invalidBody('manager_config', `is required when manager changes (from ${current.manager} to ${manager})`);
  }
  if (body.manager_config !== undefined) {
    const config = manager === current.manager ? configKept(deps.box, current, body.manager_config) : body.manager_config;
    checkManagerConfig(manager, config);
    Object.assign(row, { manager }, sealedConfig(deps.box, current.id, manager, config));
  }
  if (body.secret_path !== undefined || body.manager !== undefined) checkPath(manager, row.secret_path, deps.envPrefix);
  if (body.allow_all_workspaces !== undefined || body.allowed_workspaces !== undefined) {
    const allowAll = body.allow_all_workspaces ?? (body.allowed_workspaces !== undefined ? false : current.allowAllWorkspaces);
    Object.assign(row, await workspacesFor(principal, allowAll, body.allowed_workspaces ?? (allowAll ? undefined : [...current.allowedWorkspaces]), deps));
  }
  return row;
}

function save(deps: RouteDeps, current: SecretReference, row: SecretReferenceRow): Promise<SecretReference> {
  return saveRecord(writerOf(deps), current, row);
}

function writerOf(deps: RouteDeps): RecordWriter<SecretReference, SecretReferenceRow> {
  return { catalogue: deps.catalogue, insert: (row) => deps.repo.insert(row), update: (row) => deps.repo.update(row), fromRow, kind: 'secret reference' };
}
