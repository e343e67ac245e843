/**
 * The batch routes (spec §4.5–4.7 and the list). A batch runs with the config of the request that
 * creates it. `24h` to one provider with a batch API → a provider batch (provider.ts); anything
 * else (`immediate`, a strategy, a provider without a batch API) → a gateway-managed batch.
 */
import {
  Errors, inScope, JsonPayload, scopeOf, sortableId,
  type Clock, type FileService, type GatewayResponse, type Kernel, type RequestContext, type RouteDef, type Router, type Scope, type SecretBox,
} from '../../../core/index.js';
import { parseCreateBody, parseListQuery, type CreateBatchBody } from './body.js';
import { captureHeaders, type SealedRequest } from './capture.js';
import { unixSeconds } from './clock.js';
import type { BatchManager } from './manager.js';
import { batchObject } from './object.js';
import type { ProviderBatches } from './provider.js';
import type { BatchRepo, BatchRow } from './repo.js';

export interface BatchRouteDeps {
  kernel: Kernel;
  routes: Router;
  repo: BatchRepo;
  files: FileService;
  box: SecretBox;
  clock: Clock;
  manager: BatchManager;
  providerBatches: ProviderBatches;
  /** Provider ids whose OpenAI-compatible API has `/batches`. */
  batchProviders: ReadonlySet<string>;
  /** Window of an `immediate` batch, seconds. */
  immediateWindowSeconds: number;
}

const WINDOW_SECONDS = { '24h': 24 * 3600 } as const;

export function batchRoutes(deps: BatchRouteDeps): RouteDef[] {
  const { repo, manager, providerBatches } = deps;

  const find = async (ctx: RequestContext): Promise<BatchRow> => {
    const id = ctx.params['id']!;
    const row = await repo.get(id);
    if (!row || !inScope(scopeOf(ctx.principal), row)) throw Errors.notFound(`no batch with id "${id}"`, 'batch_not_found');
    return row;
  };

  return [
    {
      method: 'POST',
      path: '/v1/batches',
      body: 'json',
      handler: async (ctx) => {
        const body = parseCreateBody(ctx.request.body);
        if (!deps.routes.match('POST', body.endpoint).route?.endpoint) {
          throw Errors.invalidBody('endpoint', `${body.endpoint} is not served by this gateway`);
        }
        const config = await deps.kernel.resolveConfig(ctx);
        const scope = scopeOf(ctx.principal);
        const principal = JSON.stringify(ctx.principal ?? null);
        const api = deps.files.providerApi(config);
        if (body.completion_window === '24h' && api && deps.batchProviders.has(api.provider)) {
          return answer(batchObject(await providerBatches.create(body, api, scope, principal, ctx.request.signal)));
        }
        const row = await createManaged(deps, ctx, body, scope, principal, {
          headers: captureHeaders(ctx.request.headers, config),
          ...(api ? { api } : {}),
        });
        return answer(batchObject(row));
      },
    },
    {
      method: 'GET',
      path: '/v1/batches',
      body: 'none',
      handler: async (ctx) => {
        const { after, limit } = parseListQuery(ctx.request.query);
        const rows = await repo.list(scopeOf(ctx.principal), after, limit + 1);
        const data = rows.slice(0, limit).map(batchObject);
        return answer({
          object: 'list',
          data,
          first_id: (data[0]?.['id'] as string | undefined) ?? null,
          last_id: (data.at(-1)?.['id'] as string | undefined) ?? null,
          has_more: rows.length > limit,
        });
      },
    },
    {
      method: 'GET',
      path: '/v1/batches/:id',
      body: 'none',
      handler: async (ctx) => {
        const row = await find(ctx);
        return answer(batchObject(row.kind === 'provider' ? await providerBatches.refresh(row, ctx.request.signal) : row));
      },
    },
    {
      method: 'POST',
      path: '/v1/batches/:id/cancel',
      body: 'none',
      handler: async (ctx) => {
        const row = await find(ctx);
        if (row.kind === 'provider') return answer(batchObject(await providerBatches.cancel(row, ctx.request.signal)));
        const now = unixSeconds(deps.clock);
        if (await repo.transition(row.id, ['validating', 'in_progress'], { status: 'cancelling', cancelling_at: now })) {
          manager.cancel(row.id);
          return answer(batchObject({ ...row, status: 'cancelling', cancelling_at: now }));
        }
        const current = (await repo.get(row.id))!;
        if (current.status === 'cancelling' || current.status === 'cancelled') return answer(batchObject(current));
        throw Errors.invalidRequest(`batch ${row.id} is ${current.status} and can no longer be cancelled`, null, 'batch_not_cancellable');
      },
    },
  ];
}

async function createManaged(
  deps: BatchRouteDeps, ctx: RequestContext, body: CreateBatchBody, scope: Scope, principal: string, sealed: SealedRequest,
): Promise<BatchRow> {
  const local = await deps.files.get(body.input_file_id, scope);
  if (local && local.purpose !== 'batch') {
    throw Errors.invalidBody('input_file_id', `file ${body.input_file_id} has purpose "${local.purpose}", not "batch"`);
  }
  // A file the gateway does not hold can only come from the provider the request names.
  if (!local && !sealed.api) throw Errors.invalidBody('input_file_id', `no file with id "${body.input_file_id}"`);
  const id = sortableId('batch_');
  const created = unixSeconds(deps.clock);
  const window = body.completion_window === 'immediate' ? deps.immediateWindowSeconds : WINDOW_SECONDS[body.completion_window];
  const row: BatchRow = {
    id,
    organisation_id: scope.organisationId,
    workspace_id: scope.workspaceId,
    kind: 'managed',
    status: 'validating',
    endpoint: body.endpoint,
    input_file_id: body.input_file_id,
    local_input_file_id: local?.id ?? null,
    completion_window: body.completion_window,
    metadata: body.metadata ? JSON.stringify(body.metadata) : null,
    created_at: created,
    in_progress_at: null, expires_at: created + window, finalizing_at: null, completed_at: null, failed_at: null,
    expired_at: null, cancelling_at: null, cancelled_at: null,
    total: 0, completed: 0, failed: 0,
    errors: null, output_file_id: null, error_file_id: null,
    principal,
    sealed: deps.box.encrypt(JSON.stringify(sealed), id),
    provider: null, provider_batch_id: null, provider_object: null,
  };
  await deps.repo.insert(row);
  deps.manager.start(row, sealed);
  return row;
}

function answer(value: unknown): GatewayResponse {
  return { status: 200, headers: { 'content-type': 'application/json' }, json: JsonPayload.of(value) };
}

