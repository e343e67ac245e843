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

/**
 * Milliseconds of an ISO 8601 date-time the schema accepted. A well-formed but impossible date
 * (February 31st) is a 400 rather than rolling over into March.
 */
export function isoToMs(value: string, path: string): number {
  const ms = Date.parse(value);
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (Number.isNaN(ms) || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) {
    throw Errors.invalidBody(path, 'is not a valid date-time');
  }
  return ms;
}

/** An ISO 8601 date-time that must lie after `nowMs`. */
export function futureMs(value: string, nowMs: number, path: string): number {
  const ms = isoToMs(value, path);
  if (ms <= nowMs) throw Errors.invalidBody(path, 'must be in the future');
  return ms;
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
