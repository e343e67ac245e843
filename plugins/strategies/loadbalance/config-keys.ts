/**
 * `strategy.sticky` of a loadbalance node: requests with the same values of the named fields (and
 * the same gateway key) keep the target first chosen for them for `ttl` seconds (sticky.ts).
 *   enabled      required; false keeps the block in the config without effect
 *   hash_fields  `metadata.<key>`, `params.<field>`, `headers.<name>`, or `<kind>.*` for all of that kind; required when enabled
 *   ttl          seconds a choice is kept, from when it was made (default 3600, at most 30 days)
 */
import { Type, type PluginConfig } from '../../../core/index.js';

export const DEFAULT_STICKY_TTL_SECONDS = 3600;
export const MAX_STICKY_TTL_SECONDS = 30 * 24 * 3600;
export const MAX_HASH_FIELDS = 20;
export const HASH_FIELD_PATTERN = '^(metadata|params|headers)\\.(\\*|[^*\\s]+)$';

export interface StickyConfig {
  enabled: boolean;
  hash_fields?: string[];
  ttl?: number;
}

export const LOADBALANCE_CONFIG: PluginConfig = {
  keys: Type.Object({}),
  strategy: Type.Object({
    sticky: Type.Object({
      enabled: Type.Boolean(),
      hash_fields: Type.Optional(Type.Array(
        Type.String({ pattern: HASH_FIELD_PATTERN, errorMessage: 'must be "metadata.<key>", "params.<field>" or "headers.<name>" (or "<kind>.*" for all of that kind)' }),
        { minItems: 1, maxItems: MAX_HASH_FIELDS, errorMessage: `must be a list of 1 to ${MAX_HASH_FIELDS} fields` },
      )),
      ttl: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_STICKY_TTL_SECONDS, errorMessage: `must be an integer from 1 to ${MAX_STICKY_TTL_SECONDS} (seconds)` })),
    }, { additionalProperties: false }),
  }),
  rules(node, report) {
    const strategy = node['strategy'] as { mode: string; sticky?: StickyConfig } | undefined;
    const sticky = strategy?.sticky;
    if (!sticky) return;
    if (strategy.mode !== 'loadbalance') report('strategy.sticky', 'is only allowed when strategy.mode is "loadbalance"');
    else if (sticky.enabled && sticky.hash_fields === undefined) report('strategy.sticky.hash_fields', 'is required when strategy.sticky.enabled is true');
  },
};
