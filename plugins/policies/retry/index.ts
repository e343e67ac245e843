/**
 * policy.retry: retries a target's call on transient failures (config `retry`, inherited by
 * children). Wraps the attempt at WrapStage.RETRY: outside the per-try time-out, inside the
 * circuit breaker, so every try has its own timer and the breaker sees one result per target.
 *
 *   retry.attempts            retries after the first try (0 or absent: no wrapper at all)
 *   retry.on_status_codes     statuses to retry (default 429, 500, 502, 503, 504); network
 *                             failures (no provider answer) are retried whatever the list says
 *   use_retry_after_headers   wait what the provider asks (`retry-after-ms`, `retry-after`),
 *                             up to maxRetryAfterMs; a longer ask returns the failure at once
 * Otherwise waits random(0, min(maxDelayMs, baseDelayMs * 2^n)) before retry n+1 (full jitter).
 */
import { MAX_TIMER_MS, Type, WrapStage, type Plugin, type PluginApi, type Static } from '../../../core/index.js';
import { withRetries, type RetryTiming } from './runner.js';
import { RETRY_CONFIG } from './config-keys.js';

const Options = Type.Object({
  /** Back-off before the first retry is drawn from [0, baseDelayMs); doubles per retry. */
  baseDelayMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 100 }),
  /** Upper bound of one back-off wait. */
  maxDelayMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 5000 }),
  /** Longest provider-requested wait honoured (use_retry_after_headers); beyond it, no retry. */
  maxRetryAfterMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 30000 }),
}, { additionalProperties: false });

export type RetryOptions = Static<typeof Options>;

export default class RetryPlugin implements Plugin<RetryOptions> {
  static readonly manifest = { id: 'policy.retry', description: 'Retries with exponential back-off and Retry-After', options: Options, config: RETRY_CONFIG };

  apply(api: PluginApi<RetryOptions>): void {
    const timing: RetryTiming = { ...api.options, random: () => Math.random() };
    api.hooks.wrapAttempt.tap({ name: api.id, stage: WrapStage.RETRY }, (run, target) => {
      const retry = target.retry;
      return retry && retry.attempts > 0 ? withRetries(run, retry, timing) : run;
    });
  }
}
