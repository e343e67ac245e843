/** guardrail.ends-with: registers `default.endsWith`. */
import type { Plugin, PluginApi } from '../../core/index.js';
import { endsWith } from './check.js';

export default class EndsWithGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.ends-with', description: 'default.endsWith: the text ends with a suffix' };

  apply(api: PluginApi): void {
    api.registries.checks.register(endsWith.id, endsWith, api.id);
  }
}
