/** guardrail.lasso: registers the vendor check `lasso.classify`. */
import { Services, type Plugin, type PluginApi } from '../../core/index.js';
import { createLassoCheck } from './check.js';

export default class LassoGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.lasso', description: 'lasso.classify: Lasso Security classifier' };

  apply(api: PluginApi): void {
    const check = createLassoCheck(api.services.get(Services.Transport));
    api.registries.checks.register(check.id, check, api.id);
  }
}
