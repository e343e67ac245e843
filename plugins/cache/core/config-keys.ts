/** The `cache` key of a config node, read by this plugin; its mode must be a registered cache mode. */
import { MAX_TTL_SECONDS, Type, type PluginConfig } from '../../../core/index.js';

export const CACHE_CONFIG: PluginConfig = {
  keys: Type.Object({
    cache: Type.Object({
      mode: Type.String(),
      max_age: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_TTL_SECONDS })), // seconds
    }, { additionalProperties: false }),
  }),
  headers: true,
  groups: [['cache']],
  rules(node, report, { registries, pluginFor }) {
    const cache = node['cache'] as { mode: string } | undefined;
    if (!cache) return;
    const modes = registries.cacheModes;
    if (modes.has(cache.mode)) return;
    const plugin = pluginFor('cacheModes', cache.mode);
    const loaded = modes.keys();
    report('cache.mode', plugin ? `"${cache.mode}" needs plugin ${plugin}, which is not loaded`
      : loaded.length > 0 ? `must be one of ${loaded.map((m) => JSON.stringify(m)).join(', ')}`
        : `no cache plugin for "${cache.mode}" is loaded (loaded: none)`);
  },
};
