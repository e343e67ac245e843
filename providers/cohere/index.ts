/** provider.cohere: Cohere chat (v2), embed and rerank. */
import type { Plugin, PluginApi } from '../../core/index.js';
import { createCohereAdapter } from './adapter.js';

export default class CohereProviderPlugin implements Plugin {
  static readonly manifest = { id: 'provider.cohere', description: 'Cohere: chat (v2), embed and rerank' };

  apply(api: PluginApi): void {
    const adapter = createCohereAdapter();
    api.registries.providers.register(adapter.id, adapter, api.id);
  }
}
