/** guardrail.letter-case: registers `default.alluppercase` and `default.alllowercase`. */
import type { Plugin, PluginApi } from '../../core/index.js';
import { allLowercase, allUppercase } from './check.js';

export default class LetterCaseGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.letter-case', description: 'default.alluppercase, default.alllowercase: the letters of the text have one case' };

  apply(api: PluginApi): void {
    api.registries.checks.register(allUppercase.id, allUppercase, api.id);
    api.registries.checks.register(allLowercase.id, allLowercase, api.id);
  }
}
