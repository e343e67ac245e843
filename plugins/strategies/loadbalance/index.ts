/**
 * strategy.loadbalance: picks one target of the node at random, in proportion to its `weight`
 * (default 1; weight 0 is never picked). No fallback to the others: combine with a fallback
 * node for that. A node whose weights are all 0 is rejected when the config is validated.
 * With `strategy.sticky` (config-keys.ts, sticky.ts) the first choice for the same field values
 * is kept in the state store for `ttl`, and re-chosen when its circuit is open.
 */
import {
  Errors, failed, joinPath, rateLimitedWarning, Services,
  type ConfigNode, type Plugin, type PluginApi, type Strategy,
} from '../../../core/index.js';
import { LOADBALANCE_CONFIG, type StickyConfig } from './config-keys.js';
import { routeSticky, type StickyDeps } from './sticky.js';
import { cumulativeWeights, noChoiceReason, pick } from './weights.js';

export const MODE = 'loadbalance';

export function createLoadbalanceStrategy(sticky?: StickyDeps): Strategy {
  return {
    mode: MODE,
    route(node, run, ctx, path = 'config') {
      const cumulative = cumulativeWeights(node.targets ?? []);
      // Validation rejects such a node first; this guards configs that skipped it.
      const problem = noChoiceReason(cumulative);
      if (problem) return Promise.resolve(failed(Errors.invalidConfig('targets', problem)));
      const stickiness = stickyOf(node);
      if (stickiness && sticky) return routeSticky(node, stickiness, run, ctx, path, sticky);
      return run(pick(cumulative, Math.random()));
    },
  };
}

/** Without stickiness (no state store needed). */
export const loadbalanceStrategy: Strategy = createLoadbalanceStrategy();

export default class LoadbalanceStrategyPlugin implements Plugin {
  static readonly manifest = { id: 'strategy.loadbalance', description: 'Weighted random choice among targets, sticky when asked', config: LOADBALANCE_CONFIG };

  apply(api: PluginApi): void {
    const warn = rateLimitedWarning(api.logger);
    // Looked up at first use: a state plugin may be applied after this one, and only sticky nodes need one.
    const strategy = createLoadbalanceStrategy({
      store: () => api.services.find(Services.State),
      onStoreError: (error) => warn(error, 'state store failed: sticky load balancing chooses without it'),
      random: () => Math.random(),
    });
    api.registries.strategies.register(MODE, strategy, api.id);
    api.hooks.validateConfig.tap(api.id, (node: ConfigNode, path, issues) => {
      if (node.strategy?.mode !== MODE || !node.targets?.length) return;
      const problem = noChoiceReason(cumulativeWeights(node.targets));
      if (problem) issues.push({ path: joinPath(path, 'targets'), rule: problem });
      if (stickyOf(node) && !api.services.has(Services.State)) {
        issues.push({ path: joinPath(path, 'strategy.sticky'), rule: 'needs a state plugin (state.memory, or store.redis for several instances), which is not loaded' });
      }
    });
  }
}

function stickyOf(node: ConfigNode): StickyConfig | undefined {
  const sticky = (node.strategy as { sticky?: StickyConfig } | undefined)?.sticky;
  return sticky?.enabled ? sticky : undefined;
}
