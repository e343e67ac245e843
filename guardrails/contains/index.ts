/** guardrail.contains: registers `default.contains`. */
import type { Plugin, PluginApi } from '../../core/index.js';
import { contains } from './check.js';

export default class ContainsGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.contains', description: 'default.contains: the text contains any, all or none of some words' };

  apply(api: PluginApi): void {
    api.registries.checks.register(contains.id, contains, api.id);
  }
}
