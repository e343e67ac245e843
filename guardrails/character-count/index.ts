/** guardrail.character-count: registers `default.characterCount`. */
import type { Plugin, PluginApi } from '../../core/index.js';
import { characterCount } from './check.js';

export default class CharacterCountGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.character-count', description: 'default.characterCount: the number of characters lies in a range' };

  apply(api: PluginApi): void {
    api.registries.checks.register(characterCount.id, characterCount, api.id);
  }
}
