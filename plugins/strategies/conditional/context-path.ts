/**
 * Query keys name values of the request by dot path, resolved against
 *   { metadata: ctx.metadata, params: ctx.body, url: { pathname: ctx.request.path } }
 * without building that object: each key is compiled once into a getter on the context.
 */
import type { RequestContext } from '../../../core/index.js';

export type Getter = (ctx: RequestContext) => unknown;

const ROOTS = 'metadata.<key>, params.<path> or url.pathname';
const getPathname: Getter = (ctx) => ctx.request.path;

/** A getter for `key`, or the rule it breaks. */
export function compileKey(key: string): Getter | string {
  const dot = key.indexOf('.');
  const root = dot < 0 ? key : key.slice(0, dot);
  const rest = dot < 0 ? '' : key.slice(dot + 1);
  switch (root) {
    case 'metadata':
      // Metadata is flat (string values, INTERFACE.md): everything after the root is one key,
      // so keys that contain dots stay reachable.
      if (rest === '') return `must be a path starting with ${ROOTS}`;
      return (ctx) => (Object.hasOwn(ctx.metadata, rest) ? ctx.metadata[rest] : undefined);
    case 'params': {
      const segments = rest.split('.');
      if (rest === '' || segments.includes('')) return `must be a dot path below params (e.g. params.model, params.messages.0.role)`;
      return segments.length === 1 ? (ctx) => own(ctx.body, segments[0]!) : (ctx) => walk(ctx.body, segments);
    }
    case 'url':
      if (rest === 'pathname') return getPathname;
      return 'must be url.pathname (the only url field)';
    default:
      return `must be a path starting with ${ROOTS}`;
  }
}

/** An own property of an object or array; never the prototype's (`params.constructor` is absent). */
function own(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

function walk(value: unknown, segments: readonly string[]): unknown {
  for (let i = 0; i < segments.length && value !== undefined; i++) value = own(value, segments[i]!);
  return value;
}
