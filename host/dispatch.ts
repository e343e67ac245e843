/** What the node:http and fetch front ends share: URL splitting, route misses, body rules. */
import {
  Errors, jsonDepthRule, JsonPayload, nestsDeeperThan, type GatewayError, type GatewayResponse, type RouteDef,
} from '../core/index.js';
import { utf8Of } from '../core/bytes.js';

/** The path and the query string (without its `?`); the query is parsed only by the routes that read it. */
export function splitUrl(url: string): { path: string; search: string } {
  const q = url.indexOf('?');
  return q === -1 ? { path: url, search: '' } : { path: url.slice(0, q), search: url.slice(q + 1) };
}

export function bodyMode(route: RouteDef, method: string): 'json' | 'raw' | 'stream' | 'none' {
  if (route.body) return route.body;
  return method === 'POST' || method === 'PUT' || method === 'PATCH' ? 'json' : 'none';
}

/** The body's JSON value; too deep a body is refused before anything parses or walks it. */
export function parseJson(bytes: Uint8Array, maxDepth: number): unknown {
  if (bytes.byteLength === 0) return undefined;
  if (nestsDeeperThan(bytes, maxDepth)) throw Errors.invalidBody('', jsonDepthRule(maxDepth));
  try {
    return JSON.parse(utf8Of(bytes));
  } catch (e) {
    throw Errors.invalidBody('', `is not valid JSON (${(e as Error).message})`);
  }
}

export function errorResponse(error: GatewayError): GatewayResponse {
  return {
    status: error.status,
    headers: { 'content-type': 'application/json', ...error.headers },
    json: JsonPayload.of(error.toEnvelope()),
  };
}

/** 404 for an unknown path, 405 (with Allow) for a known path and another method. */
export function missResponse(allowed: string[], method: string, path: string): GatewayResponse {
  return errorResponse(allowed.length > 0 ? Errors.methodNotAllowed(method, path, allowed) : Errors.routeNotFound(method, path));
}

/** Reason phrases for the gateway's own non-standard statuses. */
export const STATUS_TEXT: Readonly<Record<number, string>> = {
  246: 'Guardrail Failed',
  446: 'Guardrail Denied',
  499: 'Client Closed Request',
};
