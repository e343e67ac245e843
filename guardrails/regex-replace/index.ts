/** guardrail.regex-replace: registers `default.regexReplace`. */
import type { Plugin, PluginApi } from '../../core/index.js';
import { regexReplace } from './check.js';

export default class RegexReplaceGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.regex-replace', description: 'default.regexReplace: replaces what a regular expression matches (transform)' };

  apply(api: PluginApi): void {
    api.registries.checks.register(regexReplace.id, regexReplace, api.id);
  }
}
