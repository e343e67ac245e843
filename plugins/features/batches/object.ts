/**
 * The Batch object of spec §2.2 (OpenAI's shape): from our record for managed batches, from the
 * provider's last answer (ids and our own fields put back) for provider batches.
 */
import type { BatchRow, BatchStatus } from './repo.js';

const STATUSES: ReadonlySet<string> = new Set<BatchStatus>([
  'validating', 'failed', 'in_progress', 'finalizing', 'completed', 'expired', 'cancelling', 'cancelled',
]);
const STAMPS = ['in_progress_at', 'expires_at', 'finalizing_at', 'completed_at', 'failed_at', 'expired_at', 'cancelling_at', 'cancelled_at'] as const;
/** Result files are announced once the batch is done writing them. */
const WITH_FILES: ReadonlySet<string> = new Set(['completed', 'cancelled', 'expired']);

export function batchObject(row: BatchRow): Record<string, unknown> {
  if (row.kind === 'provider') return providerBatchObject(row);
  const done = WITH_FILES.has(row.status);
  const object: Record<string, unknown> = {
    id: row.id,
    object: 'batch',
    endpoint: row.endpoint,
    errors: row.errors ? { object: 'list', data: JSON.parse(row.errors) as unknown } : null,
    input_file_id: row.input_file_id,
    completion_window: row.completion_window,
    status: row.status,
    output_file_id: done ? row.output_file_id : null,
    error_file_id: done ? row.error_file_id : null,
    created_at: row.created_at,
  };
  for (const stamp of STAMPS) object[stamp] = row[stamp];
  object['request_counts'] = { total: row.total, completed: row.completed, failed: row.failed };
  object['metadata'] = row.metadata ? (JSON.parse(row.metadata) as unknown) : null;
  return object;
}

function providerBatchObject(row: BatchRow): Record<string, unknown> {
  const p = row.provider_object ? (JSON.parse(row.provider_object) as Record<string, unknown>) : {};
  const counts = (p['request_counts'] ?? {}) as Record<string, unknown>;
  const object: Record<string, unknown> = {
    id: row.id,
    object: 'batch',
    endpoint: row.endpoint,
    errors: providerErrors(p['errors']),
    input_file_id: row.input_file_id,
    completion_window: row.completion_window,
    status: providerStatus(p['status']),
    output_file_id: typeof p['output_file_id'] === 'string' ? p['output_file_id'] : null,
    error_file_id: typeof p['error_file_id'] === 'string' ? p['error_file_id'] : null,
    created_at: seconds(p['created_at']) ?? row.created_at,
  };
  for (const stamp of STAMPS) object[stamp] = seconds(p[stamp]);
  object['request_counts'] = { total: count(counts['total']), completed: count(counts['completed']), failed: count(counts['failed']) };
  object['metadata'] = row.metadata ? (JSON.parse(row.metadata) as unknown) : null;
  return object;
}

/** A provider status we do not know is still running as far as a client can tell. */
export function providerStatus(value: unknown): BatchStatus {
  return typeof value === 'string' && STATUSES.has(value) ? (value as BatchStatus) : 'in_progress';
}

function providerErrors(value: unknown): unknown {
  if (!value || typeof value !== 'object') return null;
  const data = (value as Record<string, unknown>)['data'];
  if (!Array.isArray(data)) return null;
  return {
    object: 'list',
    data: data.map((item) => {
      const e = (item ?? {}) as Record<string, unknown>;
      return {
        code: typeof e['code'] === 'string' ? e['code'] : null,
        message: typeof e['message'] === 'string' ? e['message'] : null,
        param: typeof e['param'] === 'string' ? e['param'] : null,
        line: typeof e['line'] === 'number' && Number.isInteger(e['line']) ? e['line'] : null,
      };
    }),
  };
}

/** Unix seconds from a number (seconds or milliseconds) or a date string; null otherwise. */
function seconds(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.floor(value > 1e11 ? value / 1000 : value);
  if (typeof value === 'string' && value !== '') {
    const ms = Date.parse(value);
    if (Number.isFinite(ms)) return Math.floor(ms / 1000);
  }
  return null;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.floor(value)) : 0;
}
