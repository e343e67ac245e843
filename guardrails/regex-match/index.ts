/** guardrail.regex-match: registers `default.regexMatch`. */
import type { Plugin, PluginApi } from '../../core/index.js';
import { regexMatch } from './check.js';

export default class RegexMatchGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.regex-match', description: 'default.regexMatch: the text matches a regular expression' };

  apply(api: PluginApi): void {
    api.registries.checks.register(regexMatch.id, regexMatch, api.id);
  }
}
