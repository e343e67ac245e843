/** The status codes that make this strategy try the next target: on the strategy, or on a target. */
import { Type, type PluginConfig } from '../../../core/index.js';

const StatusCodes = Type.Array(Type.Integer({ minimum: 100, maximum: 599 }));

export const FALLBACK_CONFIG: PluginConfig = {
  keys: Type.Object({ on_status_codes: StatusCodes }),
  strategy: Type.Object({ on_status_codes: StatusCodes }),
  headers: true,
  // A target's own trigger list; its children do not inherit it.
  nodeOnly: ['on_status_codes'],
  rules(node, report) {
    const strategy = node['strategy'] as { mode: string; on_status_codes?: unknown } | undefined;
    if (strategy?.on_status_codes !== undefined && strategy.mode !== 'fallback') {
      report('strategy.on_status_codes', 'is only allowed when strategy.mode is "fallback"');
    }
  },
};
