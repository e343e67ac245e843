/** guardrail.moderation: registers `default.moderation` (a provider's moderation endpoint). */
import { Services, type Plugin, type PluginApi } from '../../core/index.js';
import { createModerationCheck } from './check.js';

export default class ModerationGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.moderation', description: "default.moderation: a provider's moderation endpoint, by category and threshold" };

  apply(api: PluginApi): void {
    const check = createModerationCheck(api.registries, api.services.get(Services.Transport));
    api.registries.checks.register(check.id, check, api.id);
  }
}
