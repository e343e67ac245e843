/**
 * Small helpers of the admin routes: JSON answers, bodies, query parameters, pagination.
 *
 * Shared file: identical in plugins/rate-limits and plugins/usage-limits (plugins never import
 * each other); change both, or move it to core.
 */
import { Errors, JsonPayload, type GatewayResponse, type Issue, type RequestContext, type Validator } from '../../core/index.js';

export function json(status: number, value: unknown): GatewayResponse {
  return { status, headers: { 'content-type': 'application/json' }, json: JsonPayload.of(value) };
}

/** The JSON object body, validated by `validator` (400 naming the first offending field otherwise). */
export function validBody<T>(ctx: RequestContext, validator: Validator<T>, extra?: (body: T) => Issue[]): T {
  const body = ctx.request.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw Errors.invalidBody('', 'must be a JSON object');
  if (!validator.check(body)) {
    const issue = validator.issues(body, 1)[0] ?? { path: '', rule: 'is invalid' };
    throw Errors.invalidBody(issue.path, issue.rule);
  }
  const issue = extra?.(body)[0];
  if (issue) throw Errors.invalidBody(issue.path, issue.rule);
  return body;
}

export function queryEnum<T extends string>(ctx: RequestContext, name: string, allowed: readonly T[], fallback: T): T {
  const raw = ctx.request.query.get(name);
  if (raw === null) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw invalidQuery(name, `must be one of ${allowed.join(', ')}`);
  return raw as T;
}

export interface Page {
  /** 0-based. */
  currentPage: number;
  pageSize: number;
}

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 50;

/** `current_page` (0-based, default 0) and `page_size` (1 to 100, default 50). */
export function pageOf(ctx: RequestContext): Page {
  return {
    currentPage: intQuery(ctx, 'current_page', 0, 0, 1_000_000),
    pageSize: intQuery(ctx, 'page_size', DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE),
  };
}

function intQuery(ctx: RequestContext, name: string, fallback: number, min: number, max: number): number {
  const raw = ctx.request.query.get(name);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < min || n > max) throw invalidQuery(name, `must be an integer from ${min} to ${max}`);
  return n;
}

export function invalidQuery(name: string, rule: string) {
  return Errors.invalidRequest(`query.${name}: ${rule}`, name, 'invalid_query');
}
