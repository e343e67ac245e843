/** guardrail.add-prefix: registers `default.addPrefix`. */
import type { Plugin, PluginApi } from '../../core/index.js';
import { addPrefix } from './check.js';

export default class AddPrefixGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.add-prefix', description: 'default.addPrefix: puts a prefix before the text (transform)' };

  apply(api: PluginApi): void {
    api.registries.checks.register(addPrefix.id, addPrefix, api.id);
  }
}
