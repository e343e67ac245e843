/** provider.anthropic: Claude through the Anthropic Messages API, translated to and from the OpenAI format. */
import { Type, type Plugin, type PluginApi, type Static } from '../../core/index.js';
import { createAnthropicAdapter } from './adapter.js';
import { ANTHROPIC_CONFIG } from './config-keys.js';
import { checkStrictAlias } from './strict-compliance.js';

const Options = Type.Object({
  /** max_tokens sent when a request gives neither max_tokens nor max_completion_tokens (the API requires one). */
  defaultMaxTokens: Type.Integer({ minimum: 1, default: 4096 }),
}, { additionalProperties: false });

export type AnthropicOptions = Static<typeof Options>;

export default class AnthropicProviderPlugin implements Plugin<AnthropicOptions> {
  static readonly manifest = { id: 'provider.anthropic', description: 'Anthropic Messages API (Claude)', options: Options, config: ANTHROPIC_CONFIG };

  apply(api: PluginApi<AnthropicOptions>): void {
    const adapter = createAnthropicAdapter({ defaultMaxTokens: api.options.defaultMaxTokens });
    api.registries.providers.register(adapter.id, adapter, api.id);
    api.hooks.validateConfig.tap(api.id, (_node, path, issues, effective) => checkStrictAlias(path, issues, effective));
  }
}
