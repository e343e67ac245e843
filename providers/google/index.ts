/** provider.google: the Gemini API (generativelanguage.googleapis.com) with an API key — chat and embeddings. */
import type { Plugin, PluginApi } from '../../core/index.js';
import { createGoogleAdapter } from './adapter.js';

export default class GoogleProviderPlugin implements Plugin {
  static readonly manifest = { id: 'provider.google', description: 'The Gemini API (API key): chat and embeddings' };

  apply(api: PluginApi): void {
    const adapter = createGoogleAdapter();
    api.registries.providers.register(adapter.id, adapter, api.id);
  }
}
