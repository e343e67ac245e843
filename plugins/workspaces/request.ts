/** Reading requests: validated bodies, ISO times, pagination (`current_page` from 0, `page_size`). */
import { Errors, type GatewayResponse, type RequestContext, type Validator, JsonPayload } from '../../core/index.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

/** The body checked against `validator`; an absent body is `{}` (routes whose fields are all optional). */
export function parseBody<T>(ctx: RequestContext, validator: Validator<T>): T {
  const body = ctx.request.body ?? {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw Errors.invalidBody('', 'must be a JSON object');
  if (!validator.check(body)) {
    const issue = validator.issues(body, 1)[0] ?? { path: '', rule: 'is invalid' };
    throw Errors.invalidBody(issue.path, issue.rule);
  }
  return body;
}

export interface Page {
  offset: number;
  limit: number;
  currentPage: number;
}

export function parsePage(query: URLSearchParams): Page {
  const currentPage = queryInt(query, 'current_page', 0, 0, Number.MAX_SAFE_INTEGER);
  const limit = queryInt(query, 'page_size', DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE);
  return { offset: currentPage * limit, limit, currentPage };
}

function queryInt(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < min || n > max) {
    throw Errors.invalidRequest(`query.${name}: must be an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}`, name, 'invalid_query');
  }
  return n;
}

/** A comma list from the query, each item one of `allowed`. */
export function queryList<T extends string>(query: URLSearchParams, name: string, allowed: readonly T[]): T[] | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const items = raw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const item of items) {
    if (!(allowed as readonly string[]).includes(item)) {
      throw Errors.invalidRequest(`query.${name}: "${item}" is not one of ${allowed.join(', ')}`, name, 'invalid_query');
    }
  }
  return items as T[];
}

export function json(status: number, value: unknown): GatewayResponse {
  return { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, json: JsonPayload.of(value) };
}

/** Whether a store error is a unique-constraint violation (SQLite's message, PostgreSQL's code 23505). */
export function isUniqueViolation(e: unknown): boolean {
  const error = e as { code?: unknown; message?: unknown } | null;
  return error?.code === '23505' || (typeof error?.message === 'string' && error.message.includes('UNIQUE constraint failed'));
}
