/**
 * Direct-mode header fields beneath a stored config, exactly as config.headers puts them beneath
 * a JSON `x-gw-config`: `x-gw-<field>` headers (the field with `_` as `-`, any case) converted by
 * the field's wire kind, and `Authorization: Bearer <key>` as `api_key`. A stored config that
 * names another provider (or a virtual key) takes none of the header credentials.
 * TODO(lead): this mirrors plugins/config-headers/header-fields.ts; one shared copy in core would do.
 */
import { ConfigFields, Errors, type RequestContext } from '../../core/index.js';

type Kind = (typeof ConfigFields)[string];

/** Request-level headers that are not config fields. */
const REQUEST_HEADERS: ReadonlySet<string> = new Set([
  'x-gw-api-key', 'x-gw-config', 'x-gw-trace-id', 'x-gw-span-id', 'x-gw-parent-span-id', 'x-gw-span-name',
  'x-gw-metadata', 'x-gw-cache-namespace', 'x-gw-cache-force-refresh',
]);

const STRUCTURAL = new Set(['targets', 'strategy']);

const FIELD_BY_HEADER: ReadonlyMap<string, { field: string; kind: Kind }> = new Map(
  Object.entries(ConfigFields)
    .filter(([field]) => !STRUCTURAL.has(field))
    .map(([field, kind]) => ['x-gw-' + field.replace(/_/g, '-').toLowerCase(), { field, kind }]),
);

/** The config from headers (undefined when none) under `stored`; `stored` itself when there are none. */
export function withHeaderFields(ctx: RequestContext, stored: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const headers = ctx.request.headers;
  let fields: Record<string, unknown> | undefined;
  for (const name in headers) {
    if (!name.startsWith('x-gw-') || REQUEST_HEADERS.has(name)) continue;
    const value = headers[name];
    if (value === undefined) continue;
    const spec = FIELD_BY_HEADER.get(name);
    if (!spec) throw Errors.invalidHeader(name, 'is not a known x-gw- header or config field');
    (fields ??= {})[spec.field] = convertHeader(name, value, spec.kind);
  }
  const authorization = headers['authorization'];
  if (authorization !== undefined && fields?.['api_key'] === undefined) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization);
    if (match) (fields ??= {})['api_key'] = match[1]!.trim();
  }
  if (!fields) return stored as Record<string, unknown>;
  const conflicting = (stored['provider'] !== undefined && fields['provider'] !== undefined && stored['provider'] !== fields['provider'])
    || stored['virtual_key'] !== undefined;
  // Header fields underneath, the stored config's keys on top; the cached config stays untouched.
  const merged: Record<string, unknown> = {};
  for (const key in fields) if (!(conflicting && PROVIDER_FIELDS.has(key))) merged[key] = fields[key];
  return Object.assign(merged, stored);
}

/** What a stored config naming another provider (or a virtual key) does not take from the headers. */
const PROVIDER_FIELDS: ReadonlySet<string> = new Set(['api_key', 'provider', 'custom_host']);

function convertHeader(header: string, value: string, kind: Kind): unknown {
  switch (kind) {
    case 'string':
      return value;
    case 'integer':
    case 'number': {
      const n = Number(value);
      if (value.trim() === '' || !Number.isFinite(n) || (kind === 'integer' && !Number.isInteger(n))) {
        throw Errors.invalidHeader(header, `must be ${kind === 'integer' ? 'an integer' : 'a number'}`);
      }
      return n;
    }
    case 'boolean':
      if (value === 'true') return true;
      if (value === 'false') return false;
      throw Errors.invalidHeader(header, 'must be true or false');
    case 'string[]':
      return value.split(',').map((s) => s.trim()).filter(Boolean);
    case 'number[]':
      return value.split(',').map((s) => {
        const n = Number(s.trim());
        if (!Number.isFinite(n)) throw Errors.invalidHeader(header, 'must be a comma list of numbers');
        return n;
      });
    default:
      try {
        return JSON.parse(value);
      } catch {
        throw Errors.invalidHeader(header, 'must be JSON');
      }
  }
}
