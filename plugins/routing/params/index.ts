/**
 * route.params: `override_params`, `default_params` and `drop_params` (spec §2.1) applied to each
 * target's body (after inheritance from its parents), in that order; see shape.ts.
 * Targets without these settings, and passthrough targets (their body is forwarded untouched),
 * cost one property check. Paths and the `stream` rule are checked when the config is validated.
 */
import { Stage, type ConfigNode, type Issue, type Plugin, type PluginApi } from '../../../core/index.js';
import { dropPathRule, dropPlan, hasPlan } from './drop-paths.js';
import { shapeBody } from './shape.js';
import { PARAMS_CONFIG } from './config-keys.js';

const STREAM_RULE = 'cannot be set by config: "stream" is the client\'s choice (the gateway reads it to choose the answer format)';

export default class ParamsPlugin implements Plugin {
  static readonly manifest = {
    id: 'route.params',
    description: 'override_params, default_params and drop_params per target',
    config: PARAMS_CONFIG,
  };

  apply(api: PluginApi): void {
    api.hooks.validateConfig.tap(api.id, checkNode);

    api.hooks.beforeRequest.tap({ name: api.id, stage: Stage.PARAMS }, (attempt) => {
      const target = attempt.target;
      if (target.override_params === undefined && target.default_params === undefined && target.drop_params === undefined) return undefined;
      if (target.passthrough === true) return undefined;
      attempt.body = shapeBody(attempt.body, target);
      return undefined;
    });
  }
}

function checkNode(node: ConfigNode, path: string, issues: Issue[]): void {
  const prefix = path ? path + '.' : '';
  if (node.override_params && Object.hasOwn(node.override_params, 'stream')) {
    issues.push({ path: `${prefix}override_params.stream`, rule: STREAM_RULE });
  }
  if (node.default_params && Object.hasOwn(node.default_params, 'stream')) {
    issues.push({ path: `${prefix}default_params.stream`, rule: STREAM_RULE });
  }
  const drops = node.drop_params;
  // A list parsed before was valid then; configs are not changed after they are resolved.
  if (!drops || hasPlan(drops)) return;
  let ok = true;
  for (let i = 0; i < drops.length; i++) {
    const rule = dropPathRule(drops[i]!);
    if (rule) {
      issues.push({ path: `${prefix}drop_params.${i}`, rule });
      ok = false;
    }
  }
  if (ok) dropPlan(drops);
}
