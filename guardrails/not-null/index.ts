/** guardrail.not-null: registers `default.notNull`. */
import type { Plugin, PluginApi } from '../../core/index.js';
import { notNull } from './check.js';

export default class NotNullGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.not-null', description: 'default.notNull: the text is not empty' };

  apply(api: PluginApi): void {
    api.registries.checks.register(notNull.id, notNull, api.id);
  }
}
