/**
 * Small helpers of the control-plane routes: JSON answers, the body, ISO timestamps and the
 * pagination convention (`current_page` from 0, `page_size` default 50, at most 100; lists answer
 * `{ object: 'list', total_count, current_page, page_size, data }`).
 */
import { Errors } from './errors.js';
import { JsonPayload } from './payload.js';
import type { GatewayResponse, RequestContext } from './types.js';

export function json(status: number, value: unknown): GatewayResponse {
  return { status, headers: { 'content-type': 'application/json' }, json: JsonPayload.of(value) };
}

export function objectBody(ctx: RequestContext): Record<string, unknown> {
  const body = ctx.request.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw Errors.invalidBody('', 'must be a JSON object');
  return body as Record<string, unknown>;
}

export function nowIso(): string {
  return new Date().toISOString();
}

export interface Page {
  page: number;
  size: number;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

export function pageOf(ctx: RequestContext): Page {
  return {
    page: queryInt(ctx, 'current_page', 0, 0, 1_000_000),
    size: queryInt(ctx, 'page_size', DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE),
  };
}

export function paginate<T>(items: readonly T[], page: Page): Record<string, unknown> {
  const start = page.page * page.size;
  return { object: 'list', total_count: items.length, current_page: page.page, page_size: page.size, data: items.slice(start, start + page.size) };
}

function queryInt(ctx: RequestContext, name: string, fallback: number, min: number, max: number): number {
  const raw = ctx.request.query.get(name);
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw Errors.invalidRequest(`query.${name}: must be an integer from ${min} to ${max}`, name, 'invalid_query');
  return n;
}

/** A comma list from the query (`ids=a,b`), or undefined when absent. */
export function queryList(ctx: RequestContext, name: string): string[] | undefined {
  const raw = ctx.request.query.get(name);
  if (raw === null) return undefined;
  return raw.split(',').map((s) => s.trim()).filter(Boolean);
}
