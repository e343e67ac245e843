/** provider.voyage: Voyage AI rerank (`top_n` sent as Voyage's `top_k`). */
import type { Plugin, PluginApi } from '../../core/index.js';
import { createVoyageAdapter } from './adapter.js';

export default class VoyageProviderPlugin implements Plugin {
  static readonly manifest = { id: 'provider.voyage', description: 'Voyage AI: rerank' };

  apply(api: PluginApi): void {
    const adapter = createVoyageAdapter();
    api.registries.providers.register(adapter.id, adapter, api.id);
  }
}
