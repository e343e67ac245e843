/**
 * Where a request's gateway key comes from. `x-gw-api-key` always wins, and then `Authorization`
 * keeps its direct-mode meaning (the provider's key). Without it, routes that take a key the way
 * other clients send one (inference routes, where coding agents such as Claude Code send only
 * `Authorization: Bearer` or `x-api-key`; MCP routes, `RouteDef.bearerKey`) read the token from
 * `Authorization: Bearer`, else `x-api-key`. Such a token is the gateway key only if it verifies as
 * one: there is no other caller to name (a JWT, when accepted, was named before this).
 */
import type { HeaderMap, RouteDef } from '../../../core/index.js';

export interface CarriedKey {
  /** The header that carried it: taken off the request once it named the caller. */
  header: 'authorization' | 'x-api-key';
  token: string;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Whether a route takes the gateway key from `Authorization: Bearer` / `x-api-key` when `x-gw-api-key` is absent. */
export function takesCarriedKey(route: RouteDef): boolean {
  return route.bearerKey === true || route.endpoint !== undefined;
}

/** The token a client sent as `Authorization: Bearer <token>`, else as `x-api-key: <token>`. */
export function carriedKeyOf(headers: HeaderMap): CarriedKey | undefined {
  const authorization = headers['authorization'];
  const bearer = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
  if (bearer) return { header: 'authorization', token: bearer };
  const apiKey = headers['x-api-key']?.trim();
  return apiKey ? { header: 'x-api-key', token: apiKey } : undefined;
}
