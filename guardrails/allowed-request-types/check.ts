/**
 * `default.allowedRequestTypes`: blocked types always fail; with an allow list, only listed types
 * pass; with neither list, every type passes. Without lists in the params, the request's metadata
 * `supported_endpoints` / `blocked_endpoints` (comma-separated) are used, as in the ecosystem.
 * A type in both lists is a config error.
 */
import { defineCheck, type Issue } from '../../core/index.js';
import { AllowedRequestTypesParams } from './params.js';

interface Lists {
  allowed: readonly string[];
  blocked: readonly string[];
}

const parsed = new WeakMap<AllowedRequestTypesParams, Lists>();

function listsOf(params: AllowedRequestTypesParams): Lists {
  let lists = parsed.get(params);
  if (!lists) {
    lists = { allowed: toList(params.allowedTypes), blocked: toList(params.blockedTypes) };
    parsed.set(params, lists);
  }
  return lists;
}

function toList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const items = typeof value === 'string' ? value.split(',') : value;
  return items.map((s) => s.trim()).filter((s) => s.length > 0);
}

export const allowedRequestTypes = defineCheck({
  id: 'default.allowedRequestTypes',
  params: AllowedRequestTypesParams,
  phases: ['beforeRequest', 'input'],
  check(input, params) {
    const fromParams = listsOf(params);
    const useMetadata = fromParams.allowed.length === 0 && fromParams.blocked.length === 0;
    const allowed = useMetadata ? toList(input.metadata['supported_endpoints']) : fromParams.allowed;
    const blocked = useMetadata ? toList(input.metadata['blocked_endpoints']) : fromParams.blocked;
    const type = input.endpoint;
    const isBlocked = blocked.includes(type);
    const verdict = !isBlocked && (allowed.length === 0 || allowed.includes(type));
    if (verdict) return { verdict, data: { currentRequestType: type } };
    const explanation = isBlocked ? `request type "${type}" is blocked` : `request type "${type}" is not in the allowed types`;
    return { verdict, data: { currentRequestType: type, explanation } };
  },
  validate(params: AllowedRequestTypesParams): Issue[] {
    const { allowed, blocked } = { allowed: toList(params.allowedTypes), blocked: toList(params.blockedTypes) };
    const both = allowed.filter((t) => blocked.includes(t));
    return both.length > 0 ? [{ path: 'blockedTypes', rule: `must not repeat allowed types (${both.join(', ')})` }] : [];
  },
});
