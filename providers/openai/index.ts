/** provider.openai: OpenAI and any OpenAI-compatible host (through `custom_host`). */
import type { Plugin, PluginApi } from '../../core/index.js';
import { createOpenAIAdapter } from './adapter.js';

export default class OpenAIProviderPlugin implements Plugin {
  static readonly manifest = { id: 'provider.openai', description: 'OpenAI and OpenAI-compatible hosts' };

  apply(api: PluginApi): void {
    const adapter = createOpenAIAdapter();
    api.registries.providers.register(adapter.id, adapter, api.id);
  }
}
