/** guardrail.json-keys: registers `default.jsonKeys`. */
import type { Plugin, PluginApi } from '../../core/index.js';
import { jsonKeys } from './check.js';

export default class JsonKeysGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.json-keys', description: 'default.jsonKeys: the JSON in the text has any, all or none of some keys' };

  apply(api: PluginApi): void {
    api.registries.checks.register(jsonKeys.id, jsonKeys, api.id);
  }
}
