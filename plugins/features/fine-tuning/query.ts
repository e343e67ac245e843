/** Pagination query parameters of the list routes (`after`, `limit`), checked before any provider call. */
import { Errors, queryInt } from '../../../core/index.js';

export interface Page {
  after?: string;
  limit: number;
}

export function readPage(query: URLSearchParams, defaultLimit: number, maxLimit: number): Page {
  const page: Page = { limit: defaultLimit };
  const after = query.get('after');
  if (after !== null) {
    if (after === '') throw invalidQuery('after', 'must be a non-empty id');
    page.after = after;
  }
  page.limit = queryInt(query, 'limit', { fallback: defaultLimit, min: 1, max: maxLimit });
  return page;
}

export function pageQuery(page: Page): string {
  const params = new URLSearchParams();
  if (page.after !== undefined) params.set('after', page.after);
  params.set('limit', String(page.limit));
  return '?' + params.toString();
}

function invalidQuery(name: string, rule: string) {
  return Errors.invalidRequest(`query.${name}: ${rule}`, name, 'invalid_query');
}
