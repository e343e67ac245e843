/** guardrail.model-whitelist: registers `default.modelWhitelist`. */
import type { Plugin, PluginApi } from '../../core/index.js';
import { modelWhitelist } from './check.js';

export default class ModelWhitelistGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.model-whitelist', description: 'default.modelWhitelist: the request model is in an allow (or block) list' };

  apply(api: PluginApi): void {
    api.registries.checks.register(modelWhitelist.id, modelWhitelist, api.id);
  }
}
