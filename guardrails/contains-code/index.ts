/** guardrail.contains-code: registers `default.containsCode`. */
import type { Plugin, PluginApi } from '../../core/index.js';
import { containsCode } from './check.js';

export default class ContainsCodeGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.contains-code', description: 'default.containsCode: the text contains a code block in a given language' };

  apply(api: PluginApi): void {
    api.registries.checks.register(containsCode.id, containsCode, api.id);
  }
}
