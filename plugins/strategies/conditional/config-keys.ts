/**
 * The strategy keys of a conditional node: `conditions` (each naming the target it picks) and the
 * `default` target. Query operators are checked when the config is validated (validateConfig).
 */
import { Type, type PluginConfig } from '../../../core/index.js';

type Node = Readonly<Record<string, unknown>>;

export const CONDITIONAL_CONFIG: PluginConfig = {
  keys: Type.Object({}),
  strategy: Type.Object({
    conditions: Type.Array(Type.Object({ query: Type.Object({}), then: Type.String() }, { additionalProperties: false }), { minItems: 1 }),
    default: Type.String(),
  }),
  rules(node, report) {
    const strategy = node['strategy'] as { mode: string; conditions?: { then: string }[]; default?: string } | undefined;
    if (strategy?.mode !== 'conditional') return;
    const { conditions, default: fallbackName } = strategy;
    if (!conditions) report('strategy.conditions', 'is required when strategy.mode is "conditional"');
    if (fallbackName === undefined) report('strategy.default', 'is required when strategy.mode is "conditional"');
    const targets = node['targets'] as Node[] | undefined;
    if (!targets) return;
    if (conditions) {
      for (let i = 0; i < conditions.length; i++) {
        const then = conditions[i]!.then;
        if (!hasTargetNamed(targets, then)) report(`strategy.conditions.${i}.then`, noTargetNamed(then));
      }
    }
    if (fallbackName !== undefined && !hasTargetNamed(targets, fallbackName)) report('strategy.default', noTargetNamed(fallbackName));
  },
};

function hasTargetNamed(targets: readonly Node[], name: string): boolean {
  for (const t of targets) if (t['name'] === name) return true;
  return false;
}

function noTargetNamed(name: string): string {
  return `must name a target of this node: no target is named ${JSON.stringify(name)}`;
}
