/**
 * policy.request-timeout: bounds each try of a target by `request_timeout` milliseconds (config, or
 * the `x-gw-request-timeout` header in direct mode; inherited by children). Wraps innermost
 * (WrapStage.TIMEOUT), so with retries every try gets its own timer. Expiry answers 408; a
 * fallback strategy can move on from it. For streams the limit is time-to-first-byte.
 */
import { WrapStage, type Plugin, type PluginApi } from '../../../core/index.js';
import { withTimeout } from './runner.js';
import { REQUEST_TIMEOUT_CONFIG } from './config-keys.js';

export default class RequestTimeoutPlugin implements Plugin {
  static readonly manifest = { id: 'policy.request-timeout', description: 'Per-try request_timeout (408)', config: REQUEST_TIMEOUT_CONFIG };

  apply(api: PluginApi): void {
    api.hooks.wrapAttempt.tap({ name: api.id, stage: WrapStage.TIMEOUT }, (run, target) => {
      const ms = target.request_timeout;
      return typeof ms === 'number' && ms > 0 ? withTimeout(run, ms) : run;
    });
  }
}
