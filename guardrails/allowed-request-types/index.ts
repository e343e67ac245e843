/** guardrail.allowed-request-types: registers `default.allowedRequestTypes`. */
import type { Plugin, PluginApi } from '../../core/index.js';
import { allowedRequestTypes } from './check.js';

export default class AllowedRequestTypesGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.allowed-request-types', description: 'default.allowedRequestTypes: the endpoints a config may serve' };

  apply(api: PluginApi): void {
    api.registries.checks.register(allowedRequestTypes.id, allowedRequestTypes, api.id);
  }
}
