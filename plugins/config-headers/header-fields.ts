/**
 * Maps `x-gw-<field>` request headers to config fields (INTERFACE.md): the field name with `_`
 * turned into `-`, matched case-insensitively (HTTP lower-cases header names, the spec's cloud
 * fields are camel-cased), each value converted by the field's wire kind.
 */
import { ConfigFields, Errors } from '../../core/index.js';

type Kind = (typeof ConfigFields)[string];

/** Request-level headers that are not config fields. */
export const REQUEST_HEADERS: ReadonlySet<string> = new Set([
  'x-gw-api-key', 'x-gw-config', 'x-gw-trace-id', 'x-gw-span-id', 'x-gw-parent-span-id', 'x-gw-span-name',
  'x-gw-metadata', 'x-gw-cache-namespace', 'x-gw-cache-force-refresh',
]);

/** Fields a header may not set: structure belongs in x-gw-config. */
const STRUCTURAL = new Set(['targets', 'strategy']);

export const FIELD_BY_HEADER: ReadonlyMap<string, { field: string; kind: Kind }> = new Map(
  Object.entries(ConfigFields)
    .filter(([field]) => !STRUCTURAL.has(field))
    .map(([field, kind]) => ['x-gw-' + field.replace(/_/g, '-').toLowerCase(), { field, kind }]),
);

export function convertHeader(header: string, value: string, kind: Kind): unknown {
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
