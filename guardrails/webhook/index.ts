/** guardrail.webhook: registers `default.webhook` (a check decided by an HTTP service). */
import { Services, type Plugin, type PluginApi } from '../../core/index.js';
import { createWebhookCheck } from './check.js';

export default class WebhookGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.webhook', description: 'default.webhook: a check decided by an HTTP service (webhook or third party)' };

  apply(api: PluginApi): void {
    const check = createWebhookCheck(api.services.get(Services.Transport));
    api.registries.checks.register(check.id, check, api.id);
  }
}
