/**
 * Query parameters of SCIM list and get requests (RFC 7644 §3.4.2): `filter`, `startIndex` (1-based;
 * below 1 means 1), `count` (negative means 0; capped at MAX_COUNT), `attributes` and
 * `excludedAttributes` (top-level attribute names; `id` and `schemas` are always returned).
 */
import type { RequestContext } from '../../../core/index.js';
import { ScimErrors } from './scim-errors.js';
import type { ListWindow } from './scim-json.js';

export const DEFAULT_COUNT = 100;
export const MAX_COUNT = 200;

export function listWindow(ctx: RequestContext): ListWindow {
  const query = ctx.request.query;
  const startIndex = intParam(query.get('startIndex'), 'startIndex', 1);
  const count = intParam(query.get('count'), 'count', DEFAULT_COUNT);
  return { startIndex: Math.max(1, startIndex), count: Math.min(MAX_COUNT, Math.max(0, count)) };
}

function intParam(raw: string | null, name: string, fallback: number): number {
  if (raw === null || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw ScimErrors.invalidValue(`query ${name}: must be an integer`);
  return n;
}

/** Which top-level attributes an answer keeps (lower-cased names), from `attributes` / `excludedAttributes`. */
export interface Projection {
  only?: ReadonlySet<string>;
  without?: ReadonlySet<string>;
}

export function projectionOf(ctx: RequestContext): Projection {
  const names = (raw: string | null) => raw === null ? undefined
    : new Set(raw.split(',').map((s) => topLevel(s.trim())).filter(Boolean));
  const only = names(ctx.request.query.get('attributes'));
  const without = names(ctx.request.query.get('excludedAttributes'));
  return { ...(only ? { only } : {}), ...(without ? { without } : {}) };
}

/** `urn:...:User:name.givenName` → `name`. */
function topLevel(path: string): string {
  const afterUrn = path.toLowerCase().startsWith('urn:') ? path.slice(path.lastIndexOf(':') + 1) : path;
  return afterUrn.split('.')[0]!.toLowerCase();
}

const ALWAYS = new Set(['id', 'schemas']);

export function project(resource: Record<string, unknown>, projection: Projection): Record<string, unknown> {
  if (!projection.only && !projection.without) return resource;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(resource)) {
    const name = key.toLowerCase();
    if (ALWAYS.has(name)) out[key] = value;
    else if (projection.only && !projection.only.has(name)) continue;
    else if (projection.without?.has(name)) continue;
    else out[key] = value;
  }
  return out;
}

/** Whether the answer needs `name` at all (e.g. a group's members, skipped with excludedAttributes=members). */
export function wants(projection: Projection, name: string): boolean {
  return !(projection.without?.has(name) || (projection.only && !projection.only.has(name)));
}
