/**
 * strategy.loadbalance: picks one target of the node at random, in proportion to its `weight`
 * (default 1; weight 0 is never picked). No fallback to the others: combine with a fallback
 * node for that. A node whose weights are all 0 is rejected when the config is validated.
 */
import { Errors, failed, joinPath, type ConfigNode, type Plugin, type PluginApi, type Strategy } from '../../../core/index.js';
import { cumulativeWeights, noChoiceReason, pick } from './weights.js';

export const loadbalanceStrategy: Strategy = {
  mode: 'loadbalance',
  route(node, run) {
    const cumulative = cumulativeWeights(node.targets ?? []);
    // Validation rejects such a node first; this guards configs that skipped it.
    const problem = noChoiceReason(cumulative);
    if (problem) return Promise.resolve(failed(Errors.invalidConfig('targets', problem)));
    return run(pick(cumulative, Math.random()));
  },
};

export default class LoadbalanceStrategyPlugin implements Plugin {
  static readonly manifest = { id: 'strategy.loadbalance', description: 'Weighted random choice among targets' };

  apply(api: PluginApi): void {
    api.registries.strategies.register(loadbalanceStrategy.mode, loadbalanceStrategy, api.id);
    api.hooks.validateConfig.tap(api.id, (node: ConfigNode, path, issues) => {
      if (node.strategy?.mode !== 'loadbalance' || !node.targets?.length) return;
      const problem = noChoiceReason(cumulativeWeights(node.targets));
      if (problem) issues.push({ path: joinPath(path, 'targets'), rule: problem });
    });
  }
}
