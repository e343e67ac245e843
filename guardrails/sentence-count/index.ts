/** guardrail.sentence-count: registers `default.sentenceCount`. */
import type { Plugin, PluginApi } from '../../core/index.js';
import { sentenceCount } from './check.js';

export default class SentenceCountGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.sentence-count', description: 'default.sentenceCount: the number of sentences lies in a range' };

  apply(api: PluginApi): void {
    api.registries.checks.register(sentenceCount.id, sentenceCount, api.id);
  }
}
