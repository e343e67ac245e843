/** guardrail.model-rules: registers `default.modelRules`. */
import type { Plugin, PluginApi } from '../../core/index.js';
import { modelRules } from './check.js';

export default class ModelRulesGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.model-rules', description: 'default.modelRules: the models a request may use, by its metadata' };

  apply(api: PluginApi): void {
    api.registries.checks.register(modelRules.id, modelRules, api.id);
  }
}
