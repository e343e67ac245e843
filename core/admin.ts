/**
 * Small helpers of the control-plane routes: JSON answers, the body, ISO timestamps and the
 * pagination convention (`current_page` from 0, `page_size` default 50, at most 100; lists answer
 * `{ object: 'list', total_count, current_page, page_size, data }`).
 */
import { Errors } from './errors.js';
import { JsonPayload } from './payload.js';
import type { Validator } from './schema.js';
import type { GatewayResponse, RequestContext } from './types.js';

export function json(status: number, value: unknown, headers?: Record<string, string>): GatewayResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, json: JsonPayload.of(value) };
}

/** For answers that carry secrets or one principal's view (keys, users, workspaces): never stored by a cache. */
export function noStoreJson(status: number, value: unknown): GatewayResponse {
  return json(status, value, { 'cache-control': 'no-store' });
}

/** The body as a JSON object; `absent` stands in for a missing (or `null`) body, else that is a 400. */
export function objectBody(ctx: RequestContext, absent?: Record<string, unknown>): Record<string, unknown> {
  const body = ctx.request.body ?? absent;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw Errors.invalidBody('', 'must be a JSON object');
  return body as Record<string, unknown>;
}

/** `value` when `validator` accepts it, else a 400 naming the first offending field. */
export function validated<T>(validator: Validator<T>, value: unknown): T {
  if (!validator.check(value)) {
    const issue = validator.issues(value, 1)[0] ?? { path: '', rule: 'is invalid' };
    throw Errors.invalidBody(issue.path, issue.rule);
  }
  return value;
}

/** The body checked against `validator`; an absent body is `{}` (routes whose fields are all optional). */
export function parseBody<T>(ctx: RequestContext, validator: Validator<T>): T {
  return validated(validator, objectBody(ctx, {}));
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

/** How a list route reads `current_page`: its upper bound, and whether a blank value means "absent". */
export interface PageRules {
  maxPage: number;
  blankIsAbsent: boolean;
}

const ADMIN_PAGING: PageRules = { maxPage: 1_000_000, blankIsAbsent: true };
/** Keys, users and workspaces: any page number, and a blank `current_page` or `page_size` is a 400. */
export const STRICT_PAGING: PageRules = { maxPage: Number.MAX_SAFE_INTEGER, blankIsAbsent: false };

export function pageOf(ctx: RequestContext, rules: PageRules = ADMIN_PAGING): Page {
  const query = ctx.request.query;
  return {
    page: queryInt(query, 'current_page', { fallback: 0, min: 0, max: rules.maxPage, blankIsAbsent: rules.blankIsAbsent }),
    size: queryInt(query, 'page_size', { fallback: DEFAULT_PAGE_SIZE, min: 1, max: MAX_PAGE_SIZE, blankIsAbsent: rules.blankIsAbsent }),
  };
}

/** The list answer for one page of `total` items (`data` already sliced, e.g. by the store). */
export function listPage(page: Page, total: number, data: readonly unknown[]): Record<string, unknown> {
  return { object: 'list', total_count: total, current_page: page.page, page_size: page.size, data };
}

export function paginate<T>(items: readonly T[], page: Page): Record<string, unknown> {
  const start = page.page * page.size;
  return listPage(page, items.length, items.slice(start, start + page.size));
}

export interface IntRange {
  fallback: number;
  min: number;
  /** Default: no bound (and none named in the error). */
  max?: number;
  /** Whether `?name=` counts as absent; by default it is a 400. */
  blankIsAbsent?: boolean;
}

/** An integer query parameter within `range`; a 400 `query.<name>: must be an integer from …` otherwise. */
export function queryInt(query: URLSearchParams, name: string, range: IntRange): number {
  const { fallback, min, max = Number.MAX_SAFE_INTEGER, blankIsAbsent = false } = range;
  const raw = query.get(name);
  if (raw === null || (blankIsAbsent && raw === '')) return fallback;
  const n = Number(raw);
  if ((!blankIsAbsent && raw.trim() === '') || !Number.isInteger(n) || n < min || n > max) {
    throw Errors.invalidRequest(`query.${name}: must be an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}`, name, 'invalid_query');
  }
  return n;
}

/** `?version=`: a stored record's version (an integer >= 1), or undefined when absent. */
export function queryVersion(ctx: RequestContext): number | undefined {
  const raw = ctx.request.query.get('version');
  if (raw === null) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < 1 || n > Number.MAX_SAFE_INTEGER) {
    throw Errors.invalidRequest(`query.version: must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`, 'version', 'invalid_query');
  }
  return n;
}

/** A comma list from the query (`ids=a,b`), or undefined when absent; with `allowed`, each item must be one of them. */
export function queryList(ctx: RequestContext, name: string): string[] | undefined;
export function queryList<T extends string>(ctx: RequestContext, name: string, allowed: readonly T[]): T[] | undefined;
export function queryList(ctx: RequestContext, name: string, allowed?: readonly string[]): string[] | undefined {
  const raw = ctx.request.query.get(name);
  if (raw === null) return undefined;
  const items = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const notAllowed = allowed && items.find((item) => !allowed.includes(item));
  if (notAllowed !== undefined) throw Errors.invalidRequest(`query.${name}: "${notAllowed}" is not one of ${allowed!.join(', ')}`, name, 'invalid_query');
  return items;
}
