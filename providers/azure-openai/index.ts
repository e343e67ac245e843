/**
 * provider.azure-openai: Azure OpenAI and Azure AI (serverless, managed) endpoints. Rerank reuses
 * provider.cohere's transforms when that plugin is loaded (looked up per request, so it is not a
 * hard dependency: without it, rerank on Azure answers 400).
 */
import type { Plugin, PluginApi } from '../../core/index.js';
import { createAzureAdapter } from './adapter.js';
import { AZURE_CONFIG } from './config-keys.js';

export default class AzureOpenAIProviderPlugin implements Plugin {
  static readonly manifest = { id: 'provider.azure-openai', description: 'Azure OpenAI and Azure AI (serverless, managed) endpoints', config: AZURE_CONFIG };

  apply(api: PluginApi): void {
    const adapter = createAzureAdapter(api.registries.providers);
    api.registries.providers.register(adapter.id, adapter, api.id);
  }
}
