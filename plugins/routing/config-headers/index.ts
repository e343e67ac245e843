/**
 * config.headers: builds the route config from request headers (spec §5, INTERFACE.md).
 *   - `x-gw-config`: a config object as JSON, or the id of a stored config (left for a later plugin);
 *   - direct mode: `x-gw-provider` + `Authorization: Bearer <provider key>` (+ `x-gw-custom-host`);
 *   - `x-gw-<field>` for any other config field.
 * Header fields form the base; an `x-gw-config` object's keys override them, so a stored strategy
 * can still take its provider key from the request.
 */
import {
  BoundedMap, DEFAULT_JSON_MAX_DEPTH, deepFreeze, Errors, HeaderConfigs, jsonDepthRule, nestsDeeperThan, Stage, Type, type Plugin, type PluginApi, type RawConfig, type RequestContext,
  type Static,
} from '../../../core/index.js';

const Options = Type.Object({
  /**
   * How many distinct x-gw-config strings (and header-field sets) keep their parsed object: JSON
   * parsing and validation once per config, not once per request.
   */
  parsedConfigCacheSize: Type.Integer({ minimum: 0, default: 1000 }),
}, { additionalProperties: false });

export default class ConfigHeadersPlugin implements Plugin<Static<typeof Options>> {
  static readonly manifest = { id: 'config.headers', description: 'Route config from x-gw-* headers', options: Options };

  apply(api: PluginApi<Static<typeof Options>>): void {
    const maxJsonDepth = api.settings.jsonMaxDepth ?? DEFAULT_JSON_MAX_DEPTH;
    const parsed = new ParsedConfigCache(api.options.parsedConfigCacheSize, maxJsonDepth);
    const headerConfigs = new HeaderConfigs(api.configKeys, api.options.parsedConfigCacheSize, maxJsonDepth);
    api.hooks.resolveConfig.tap({ name: api.id, stage: Stage.CONFIG }, (current, ctx) => {
      if (current !== undefined) return current;
      return configFromHeaders(ctx, parsed, headerConfigs);
    });
  }
}

function configFromHeaders(ctx: RequestContext, parsed: ParsedConfigCache, headerConfigs: HeaderConfigs): RawConfig {
  const header = ctx.request.headers['x-gw-config'];
  const fields = headerConfigs.fields(ctx.request.headers, header !== undefined);
  if (header === undefined) return fields as RawConfig;
  const config = parsed.get(header);
  // A config id: the stored config's plugin puts the header fields beneath it.
  if (typeof config === 'string') return config;
  return headerConfigs.beneath(fields, config);
}

/** Parsed `x-gw-config` values by their exact string, frozen so that no request can alter another's. */
class ParsedConfigCache {
  readonly #entries: BoundedMap<string, Record<string, unknown> | string>;
  constructor(max: number, private readonly maxJsonDepth: number) {
    this.#entries = new BoundedMap(max);
  }

  get(header: string): Record<string, unknown> | string {
    return this.#entries.remember(header, () => parseConfigHeader(header, this.maxJsonDepth));
  }
}

function parseConfigHeader(header: string, maxJsonDepth: number): Record<string, unknown> | string {
  const text = header.trim();
  if (!text.startsWith('{')) {
    if (text === '') throw Errors.invalidHeader('x-gw-config', 'must be a JSON object or a config id');
    return text;
  }
  if (nestsDeeperThan(text, maxJsonDepth)) throw Errors.invalidHeader('x-gw-config', jsonDepthRule(maxJsonDepth));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw Errors.invalidHeader('x-gw-config', `is not valid JSON (${(e as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw Errors.invalidHeader('x-gw-config', 'must be a JSON object');
  }
  return deepFreeze(value as Record<string, unknown>);
}
