/**
 * The structural keys every gateway has, whatever its plugins: the target tree (`targets`, the
 * `strategy` that routes over it, a child's `name` and `weight` in it) and the provider-neutral
 * target (`provider` with its `api_key` or `custom_host`, or a `virtual_key` naming stored
 * credentials). The kernel itself reads these (routing, inheritance, `Authorization` as `api_key`);
 * every other key belongs to the plugin that reads it (manifest `config`).
 */
import { Type, type TSchema } from '../schema.js';
import type { PluginConfig } from '../plugin.js';

/** A weight past a million is a mistake (the spec names no cap). */
const MAX_WEIGHT = 1_000_000;

export const HttpUrl = Type.String({ pattern: '^https?://[^\\s/?#]+(?:[/?#]\\S*)?$', errorMessage: 'must be an http(s) URL' });

/** The owner named for the core keys in the key-owner table. */
export const CORE_OWNER = 'core';

export const CORE_CONFIG: PluginConfig = {
  keys: Type.Object({
    // `strategy` and `targets` are assembled by ConfigKeys: the modes and the strategy keys come from plugins.
    provider: Type.String({ minLength: 1, errorMessage: 'must be a non-empty string' }),
    api_key: Type.String(),
    virtual_key: Type.String(),
    custom_host: HttpUrl,
    name: Type.String(),
    weight: Type.Number({ minimum: 0, maximum: MAX_WEIGHT }),
  }),
  headers: ['provider', 'api_key', 'virtual_key', 'custom_host', 'name', 'weight'],
  credentials: ['provider', 'api_key', 'virtual_key', 'custom_host'],
  secrets: ['api_key'],
  nodeOnly: ['name', 'weight'],
  groups: [['provider', 'api_key'], ['provider', 'custom_host'], ['virtual_key'], ['strategy', 'targets']],
};

/** The properties of a TypeBox object schema (empty for any other schema). */
export function propertiesOf(schema: TSchema | undefined): Record<string, TSchema> {
  return ((schema as { properties?: Record<string, TSchema> } | undefined)?.properties) ?? {};
}
