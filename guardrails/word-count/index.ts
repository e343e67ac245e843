/** guardrail.word-count: registers `default.wordCount`. */
import type { Plugin, PluginApi } from '../../core/index.js';
import { wordCount } from './check.js';

export default class WordCountGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.word-count', description: 'default.wordCount: the number of words lies in a range' };

  apply(api: PluginApi): void {
    api.registries.checks.register(wordCount.id, wordCount, api.id);
  }
}
