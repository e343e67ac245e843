/**
 * Small helpers of the admin routes beyond core's (admin.ts: JSON answers, pagination): validated
 * bodies and enumerated query parameters.
 */
import { Errors, type Issue, type RequestContext, type Validator } from '../../../core/index.js';

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

export function invalidQuery(name: string, rule: string) {
  return Errors.invalidRequest(`query.${name}: ${rule}`, name, 'invalid_query');
}
