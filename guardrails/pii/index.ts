/** guardrail.pii: registers `default.pii` (detection and redaction of personal data). */
import type { Plugin, PluginApi } from '../../core/index.js';
import { pii } from './check.js';

export default class PiiGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.pii', description: 'default.pii: detects or redacts emails, phone numbers, card numbers and national ids' };

  apply(api: PluginApi): void {
    api.registries.checks.register(pii.id, pii, api.id);
  }
}
