/** provider.openai: OpenAI, the OpenAI-compatible presets (presets.ts), and any compatible host through `custom_host`. */
import type { Plugin, PluginApi } from '../../core/index.js';
import { createOpenAIAdapter } from './adapter.js';
import { OPENAI_COMPATIBLE_PRESETS } from './presets.js';
import { OPENAI_CONFIG } from './config-keys.js';

export default class OpenAIProviderPlugin implements Plugin {
  static readonly manifest = { id: 'provider.openai', description: 'OpenAI and OpenAI-compatible hosts', config: OPENAI_CONFIG };

  apply(api: PluginApi): void {
    const adapter = createOpenAIAdapter(undefined, undefined, { strictChat: true });
    api.registries.providers.register(adapter.id, adapter, api.id);
    for (const preset of OPENAI_COMPATIBLE_PRESETS) {
      const compatible = createOpenAIAdapter(preset.id, preset.baseUrl ?? null, { requiresKey: preset.auth === 'bearer' });
      api.registries.providers.register(compatible.id, compatible, api.id);
    }
  }
}
