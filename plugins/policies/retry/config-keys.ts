/** The `retry` key of a config node, read by this plugin. */
import { Type, type PluginConfig } from '../../../core/index.js';

export const RETRY_CONFIG: PluginConfig = {
  keys: Type.Object({
    retry: Type.Object({
      // At most 10 (our cap; the spec names none): each attempt may wait with back-off, so more
      // attempts only multiply latency and provider cost.
      attempts: Type.Integer({ minimum: 0, maximum: 10 }),
      on_status_codes: Type.Optional(Type.Array(Type.Integer({ minimum: 100, maximum: 599 }))),
      use_retry_after_headers: Type.Optional(Type.Boolean()),
    }, { additionalProperties: false }),
  }),
  headers: true,
  groups: [['retry']],
};
