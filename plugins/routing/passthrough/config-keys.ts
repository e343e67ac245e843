/** The `passthrough` key of a config node, read by this plugin, and what it excludes. */
import { Type, type PluginConfig } from '../../../core/index.js';

/** A passthrough node forwards the request as is, so it cannot route, rewrite or guard it (§2.1, §7). */
const EXCLUDES = ['strategy', 'targets', 'override_params', 'input_guardrails', 'output_guardrails', 'before_request_hooks', 'after_request_hooks'] as const;

export const PASSTHROUGH_CONFIG: PluginConfig = {
  keys: Type.Object({ passthrough: Type.Boolean() }),
  headers: true,
  groups: [['passthrough']],
  rules(node, report) {
    if (node['passthrough'] !== true) return;
    for (const key of EXCLUDES) if (node[key] !== undefined) report(key, 'cannot be combined with passthrough');
  },
};
