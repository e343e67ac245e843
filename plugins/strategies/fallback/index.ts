/**
 * strategy.fallback: tries the node's targets in order and serves the first success.
 * It moves on when an outcome fails with a status in `on_status_codes` (the failing child's own
 * list when it has one, else `strategy.on_status_codes`), or on any failure when neither is set.
 * When every target fails, the last failure is served (the provider's status and envelope).
 * A stream counts as an answer once its first byte arrived (the upstream plugin awaits it), so a
 * stream that breaks later ends with an error event and is never retried on another target.
 */
import { releaseOutcome, type Plugin, type PluginApi, type Strategy } from '../../../core/index.js';
import { statusCodesFor, triggersFallback } from './triggers.js';
import { FALLBACK_CONFIG } from './config-keys.js';

export const fallbackStrategy: Strategy = {
  mode: 'fallback',
  async route(node, run, ctx) {
    const targets = node.targets ?? [];
    const strategyCodes = node.strategy?.on_status_codes;
    const signal = ctx.request.signal;
    let outcome = await run(0);
    for (let i = 1; i < targets.length; i++) {
      // A client that went away reads nothing: spending more provider calls on it is waste.
      if (signal.aborted || !triggersFallback(outcome, statusCodesFor(targets[i - 1], strategyCodes))) return outcome;
      releaseOutcome(outcome);
      outcome = await run(i);
    }
    return outcome;
  },
};

export default class FallbackStrategyPlugin implements Plugin {
  static readonly manifest = { id: 'strategy.fallback', description: 'Tries targets in order until one succeeds', config: FALLBACK_CONFIG };

  apply(api: PluginApi): void {
    api.registries.strategies.register(fallbackStrategy.mode, fallbackStrategy, api.id);
  }
}
