/** guardrail.required-metadata-key-pairs: registers `default.requiredMetadataKeyPairs`. */
import type { Plugin, PluginApi } from '../../core/index.js';
import { requiredMetadataKeyPairs } from './check.js';

export default class RequiredMetadataKeyPairsGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.required-metadata-key-pairs', description: 'default.requiredMetadataKeyPairs: the request carries metadata pairs' };

  apply(api: PluginApi): void {
    api.registries.checks.register(requiredMetadataKeyPairs.id, requiredMetadataKeyPairs, api.id);
  }
}
