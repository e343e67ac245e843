/**
 * The wire kind of a config key set by a direct-mode `x-gw-<field>` request header, derived from
 * the key's schema: integers and numbers parsed, booleans from `true`/`false`, `string[]`/`number[]`
 * from comma lists, objects and other arrays from JSON.
 */
import type { TSchema } from '../schema.js';

export type ConfigFieldKind = 'string' | 'integer' | 'number' | 'boolean' | 'string[]' | 'number[]' | 'object' | 'array';

export function fieldKindOf(schema: TSchema): ConfigFieldKind {
  const s = schema as Record<string, unknown>;
  if (s['type'] === 'array') {
    const items = (s['items'] ?? {}) as Record<string, unknown>;
    if (items['type'] === 'string') return 'string[]';
    if (items['type'] === 'integer' || items['type'] === 'number') return 'number[]';
    return 'array';
  }
  if (Array.isArray(s['anyOf'])) {
    // A string enum is a string; any other union is given as JSON.
    return (s['anyOf'] as Record<string, unknown>[]).every((m) => typeof m['const'] === 'string') ? 'string' : 'object';
  }
  const type = s['type'];
  if (type === 'string' || type === 'integer' || type === 'number' || type === 'boolean') return type;
  return 'object';
}
