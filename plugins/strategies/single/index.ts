/** strategy.single: a node in single mode serves from its first target. */
import type { Plugin, PluginApi, Strategy } from '../../../core/index.js';

export const singleStrategy: Strategy = {
  mode: 'single',
  route: (_node, run) => run(0),
};

export default class SingleStrategyPlugin implements Plugin {
  static readonly manifest = { id: 'strategy.single', description: 'Single-target routing' };

  apply(api: PluginApi): void {
    api.registries.strategies.register(singleStrategy.mode, singleStrategy, api.id);
  }
}
