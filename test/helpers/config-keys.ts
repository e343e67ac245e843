/**
 * The route config as a gateway with every built-in plugin assembles it, without booting one:
 * each built-in's manifest `config`, and registries holding the built-in strategy and cache modes.
 */
import { ConfigKeys, type ConfigContribution, type Registries } from '../../core/index.js';
import { createRegistries } from '../../core/registries.js';
import { BUILTIN_PLUGINS, MISSING_PLUGIN_HINTS, PRESETS, REGISTRY_ENTRY_OWNERS } from '../../host/builtins.js';

/** Registries with the built-in strategy and cache modes registered (their owners as plugin). */
export function builtinRegistries(): Registries {
  const registries = createRegistries();
  for (const [name, plugin] of Object.entries(REGISTRY_ENTRY_OWNERS.strategies)) {
    registries.strategies.register(name, { mode: name, route: () => Promise.reject(new Error('not routed in this test')) }, plugin);
  }
  for (const [name, plugin] of Object.entries(REGISTRY_ENTRY_OWNERS.cacheModes)) {
    registries.cacheModes.register(name, {} as never, plugin);
  }
  return registries;
}

/** Each built-in's `config`, in the default preset's order. */
export async function builtinContributions(ids: readonly string[] = PRESETS['default']!): Promise<ConfigContribution[]> {
  const out: ConfigContribution[] = [];
  for (const id of ids) {
    const cls = (await BUILTIN_PLUGINS[id]!()).default;
    if (cls.manifest.config) out.push({ plugin: cls.manifest.id, config: cls.manifest.config });
  }
  return out;
}

export async function builtinConfigKeys(ids?: readonly string[]): Promise<ConfigKeys> {
  return new ConfigKeys(await builtinContributions(ids), builtinRegistries(), MISSING_PLUGIN_HINTS);
}
