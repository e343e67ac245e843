/** provider.bedrock: Amazon Bedrock (the spec's cloudA): Converse chat, streamed chat, Rerank and Messages for Claude (InvokeModel), signed with SigV4. */
import type { Plugin, PluginApi } from '../../core/index.js';
import { createBedrockAdapter } from './adapter.js';
import { BEDROCK_CONFIG } from './config-keys.js';

export default class BedrockProviderPlugin implements Plugin {
  static readonly manifest = { id: 'provider.bedrock', description: 'Amazon Bedrock (cloudA): Converse, ConverseStream, Rerank and native Messages for Claude (InvokeModel) with SigV4', config: BEDROCK_CONFIG };

  apply(api: PluginApi): void {
    const adapter = createBedrockAdapter();
    api.registries.providers.register(adapter.id, adapter, api.id);
  }
}
