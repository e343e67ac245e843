/**
 * Direct-mode config from request headers (INTERFACE.md), shared by config.headers (beneath a JSON
 * `x-gw-config`) and configs (beneath a stored config): `x-gw-<field>` headers, the field name with
 * `_` turned into `-`, matched case-insensitively (HTTP lower-cases header names, the spec's cloud
 * fields are camel-cased), each value converted by the field's wire kind; and
 * `Authorization: Bearer <key>` as `api_key`. Which keys a header may set, and their kinds, come
 * from the plugins that own them (ConfigKeys).
 */
import { Errors } from '../errors.js';
import type { HeaderMap } from '../types.js';
import { BoundedMap } from '../bounded-map.js';
import { DEFAULT_JSON_MAX_DEPTH, jsonDepthRule, nestsDeeperThan } from '../json-depth.js';
import type { ConfigFieldKind } from './fields.js';
import type { ConfigKeys } from './keys.js';

/** Request-level headers that are not config fields. */
const REQUEST_HEADERS: ReadonlySet<string> = new Set([
  'x-gw-api-key', 'x-gw-config', 'x-gw-trace-id', 'x-gw-span-id', 'x-gw-parent-span-id', 'x-gw-span-name',
  'x-gw-metadata', 'x-gw-cache-namespace', 'x-gw-cache-force-refresh',
  // The workspace a person acts in (identity plugins), not a config field.
  'x-gw-workspace',
]);

/** What a config naming another provider (or a virtual key) does not take from the headers. */
const PROVIDER_FIELDS: ReadonlySet<string> = new Set(['api_key', 'provider', 'custom_host']);

/**
 * The config fields the headers set, or undefined when none. The bearer token counts only beside
 * other fields or a config (`withConfig`): alone it is not a config.
 */
export function headerConfigFields(headers: HeaderMap, withConfig: boolean, keys: ConfigKeys, maxJsonDepth = DEFAULT_JSON_MAX_DEPTH): Record<string, unknown> | undefined {
  let fields: Record<string, unknown> | undefined;
  for (const name in headers) {
    if (!name.startsWith('x-gw-') || REQUEST_HEADERS.has(name)) continue;
    const value = headers[name];
    if (value === undefined) continue;
    const spec = keys.headerFields.get(name);
    if (!spec) throw unknownHeader(name, keys);
    (fields ??= {})[spec.field] = convertHeader(name, value, spec.kind, maxJsonDepth);
  }
  const authorization = headers['authorization'];
  if (authorization !== undefined && (fields || withConfig) && fields?.['api_key'] === undefined) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization);
    if (match) (fields ??= {})['api_key'] = match[1]!.trim();
  }
  return fields;
}

/**
 * The same config for the same headers: header fields and header-over-config merges are kept,
 * frozen, by what they were made from, so that a client sending the same headers request after
 * request gets the very same config object, and the kernel validates it once (it remembers frozen
 * configs it has validated). Bounded: the oldest entries go first.
 */
export class HeaderConfigs {
  readonly #fields: BoundedMap<string, Readonly<Record<string, unknown>> | null>;
  readonly #merged = new WeakMap<object, BoundedMap<object, Readonly<Record<string, unknown>>>>();

  constructor(private readonly keys: ConfigKeys, private readonly maxEntries = 1000, private readonly maxJsonDepth = DEFAULT_JSON_MAX_DEPTH) {
    this.#fields = new BoundedMap(maxEntries);
  }

  /** headerConfigFields, frozen; the same object for the same header values. */
  fields(headers: HeaderMap, withConfig: boolean): Readonly<Record<string, unknown>> | undefined {
    let signature = withConfig ? '1' : '0';
    for (const name in headers) {
      if (name.startsWith('x-gw-') && !REQUEST_HEADERS.has(name)) signature += `\n${name}\n${headers[name]}`;
    }
    signature += `\n\n${headers['authorization'] ?? ''}`;
    // null stands for "no fields" (undefined would read as "not kept").
    const fields = this.#fields.remember(signature, () => {
      const made = headerConfigFields(headers, withConfig, this.keys, this.maxJsonDepth);
      return made ? Object.freeze(made) : null;
    });
    return fields ?? undefined;
  }

  /** beneathConfig, frozen; the same object for the same (frozen) fields and config. */
  beneath(fields: Readonly<Record<string, unknown>> | undefined, config: Readonly<Record<string, unknown>>): Record<string, unknown> {
    if (!fields) return config as Record<string, unknown>;
    let byFields = this.#merged.get(config);
    if (!byFields) this.#merged.set(config, (byFields = new BoundedMap(this.maxEntries)));
    return byFields.remember(fields, () => Object.freeze(beneathConfig(fields, config))) as Record<string, unknown>;
  }
}

/**
 * Header fields underneath, the config's own keys on top: a new object, `config` (often cached)
 * stays untouched, and is answered itself when there are no fields. A config that names another
 * provider (or a virtual key) takes none of the header credentials.
 */
export function beneathConfig(fields: Record<string, unknown> | undefined, config: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (!fields) return config as Record<string, unknown>;
  const conflicting = (config['provider'] !== undefined && fields['provider'] !== undefined && config['provider'] !== fields['provider'])
    || config['virtual_key'] !== undefined;
  const under: Record<string, unknown> = {};
  for (const key in fields) if (!(conflicting && PROVIDER_FIELDS.has(key))) under[key] = fields[key];
  // Spread, not Object.assign: a config's own `__proto__` key stays a plain key.
  return { ...under, ...config };
}

function unknownHeader(name: string, keys: ConfigKeys) {
  const plugin = keys.pluginForHeader(name);
  return Errors.invalidHeader(name, plugin ? `needs plugin ${plugin}, which is not loaded` : 'is not a known x-gw- header or config field');
}

function convertHeader(header: string, value: string, kind: ConfigFieldKind, maxJsonDepth: number): unknown {
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
      if (nestsDeeperThan(value, maxJsonDepth)) throw Errors.invalidHeader(header, jsonDepthRule(maxJsonDepth));
      try {
        return JSON.parse(value);
      } catch {
        throw Errors.invalidHeader(header, 'must be JSON');
      }
  }
}
