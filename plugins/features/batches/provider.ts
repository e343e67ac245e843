/**
 * Provider batches: a `24h` batch for a provider with an OpenAI-compatible batch API is the
 * provider's. The input file is uploaded to the provider's `/files` when the gateway holds it,
 * then `POST {base}/batches`; our record maps our id to the provider's and keeps its last answer
 * and the (sealed) credentials, so GET and cancel are forwarded without the client resending them.
 */
import {
  Errors, sortableId,
  type Clock, type FileService, type ProviderApi, type Scope, type SecretBox,
} from '../../../core/index.js';
import { unixSeconds } from './clock.js';
import type { CreateBatchBody } from './body.js';
import type { SealedRequest } from './capture.js';
import { providerStatus } from './object.js';
import type { BatchRepo, BatchRow } from './repo.js';

export class ProviderBatches {
  constructor(
    private readonly repo: BatchRepo,
    private readonly files: FileService,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  async create(body: CreateBatchBody, api: ProviderApi, scope: Scope, principal: string, signal: AbortSignal): Promise<BatchRow> {
    let input = body.input_file_id;
    const local = await this.files.get(input, scope);
    if (local) {
      if (local.purpose !== 'batch') throw Errors.invalidBody('input_file_id', `file ${input} has purpose "${local.purpose}", not "batch"`);
      input = await this.files.pushToProvider(local.id, 'batch', api, signal);
    }
    const answer = await this.files.providerJson(api, 'POST', '/batches', {
      input_file_id: input,
      endpoint: body.endpoint,
      completion_window: '24h',
      ...(body.metadata ? { metadata: body.metadata } : {}),
    }, signal);
    if (typeof answer['id'] !== 'string') throw Errors.badGateway(`provider ${api.provider} answered a batch without an id`, api.provider);
    const id = sortableId('batch_');
    const sealed: SealedRequest = { headers: {}, api };
    const row: BatchRow = {
      id,
      organisation_id: scope.organisationId,
      workspace_id: scope.workspaceId,
      kind: 'provider',
      status: providerStatus(answer['status']),
      endpoint: body.endpoint,
      input_file_id: body.input_file_id,
      local_input_file_id: local?.id ?? null,
      completion_window: body.completion_window,
      metadata: body.metadata ? JSON.stringify(body.metadata) : null,
      created_at: unixSeconds(this.clock),
      in_progress_at: null, expires_at: null, finalizing_at: null, completed_at: null, failed_at: null,
      expired_at: null, cancelling_at: null, cancelled_at: null,
      total: 0, completed: 0, failed: 0,
      errors: null, output_file_id: null, error_file_id: null,
      principal,
      sealed: this.box.encrypt(JSON.stringify(sealed), id),
      provider: api.provider,
      provider_batch_id: answer['id'],
      provider_object: JSON.stringify(answer),
    };
    await this.repo.insert(row);
    return row;
  }

  /** GET at the provider; the record keeps the answer for lists. */
  refresh(row: BatchRow, signal: AbortSignal): Promise<BatchRow> {
    return this.#call(row, 'GET', `/batches/${encodeURIComponent(row.provider_batch_id!)}`, signal);
  }

  cancel(row: BatchRow, signal: AbortSignal): Promise<BatchRow> {
    return this.#call(row, 'POST', `/batches/${encodeURIComponent(row.provider_batch_id!)}/cancel`, signal);
  }

  async #call(row: BatchRow, method: string, path: string, signal: AbortSignal): Promise<BatchRow> {
    const { api } = JSON.parse(this.box.decrypt(row.sealed, row.id)) as SealedRequest;
    if (!api) throw Errors.internal();
    const answer = await this.files.providerJson(api, method, path, undefined, signal);
    const patch = { status: providerStatus(answer['status']), provider_object: JSON.stringify(answer) };
    await this.repo.update(row.id, patch);
    return { ...row, ...patch };
  }
}
