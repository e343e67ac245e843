/**
 * The state key of a sticky choice: sha256 over the gateway key id, the node's place in the config
 * and a digest of its targets (two nodes, or a node whose targets changed, never share a choice),
 * and the values of the named fields:
 *   metadata.<key> / metadata.*   from x-gw-metadata
 *   params.<field> / params.*     from the request body (canonical JSON: key order does not matter)
 *   headers.<name> / headers.*    from the request headers (names case-insensitive); `*` leaves out
 *                                 the headers that differ on every request (length, trace ids)
 * A field the request lacks counts as null. Values only enter hashed: no secret reaches the store.
 */
import { sha256Hex, type ConfigNode, type RequestContext } from '../../../core/index.js';

export const STICKY_KEY_PREFIX = 'lb:sticky:';

/** Headers that change from request to request whatever the caller means: they would defeat `headers.*`. */
const VARYING_HEADERS: ReadonlySet<string> = new Set([
  'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'traceparent', 'tracestate',
  'x-gw-trace-id', 'x-gw-span-id', 'x-gw-parent-span-id', 'x-gw-span-name', 'x-request-id',
]);

const nodeDigests = new WeakMap<ConfigNode, string>();

export function stickyKey(ctx: RequestContext, node: ConfigNode, path: string, fields: readonly string[]): string {
  const values = fields.map((field) => [field, fieldValue(ctx, field)]);
  const material = canonicalJson([ctx.principal?.keyId ?? '', path, nodeDigest(node), values]);
  return STICKY_KEY_PREFIX + sha256Hex(material).slice(0, 40);
}

/** A node's targets, digested once per (frozen, cached) node object. */
function nodeDigest(node: ConfigNode): string {
  let digest = nodeDigests.get(node);
  if (digest === undefined) {
    digest = sha256Hex(canonicalJson(node.targets ?? [])).slice(0, 32);
    nodeDigests.set(node, digest);
  }
  return digest;
}

function fieldValue(ctx: RequestContext, field: string): unknown {
  const dot = field.indexOf('.');
  const kind = field.slice(0, dot);
  const name = field.slice(dot + 1);
  switch (kind) {
    case 'metadata':
      return name === '*' ? ctx.metadata : (ctx.metadata[name] ?? null);
    case 'params':
      return name === '*' ? ctx.body : (ctx.body[name] ?? null);
    default: {
      const headers = ctx.request.headers;
      if (name !== '*') return headers[name.toLowerCase()] ?? null;
      const kept: Record<string, unknown> = {};
      for (const header in headers) if (!VARYING_HEADERS.has(header) && headers[header] !== undefined) kept[header] = headers[header];
      return kept;
    }
  }
}

/** JSON with object keys sorted at every level. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v as object).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}
