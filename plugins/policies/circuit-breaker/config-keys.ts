/** The `cb_config` key of a config node, read by this plugin. */
import { DAY_MS, Type, type PluginConfig } from '../../../core/index.js';

/** A threshold past a million failures is a mistake (the spec names no cap). */
const MAX_FAILURE_THRESHOLD = 1_000_000;

export const CIRCUIT_BREAKER_CONFIG: PluginConfig = {
  keys: Type.Object({
    cb_config: Type.Object({
      failure_threshold: Type.Number({ minimum: 1, maximum: MAX_FAILURE_THRESHOLD }),
      cooldown_interval: Type.Number({ minimum: 30000, maximum: DAY_MS }), // milliseconds
      failure_status_codes: Type.Optional(Type.Array(Type.Integer({ minimum: 100, maximum: 599 }))),
    }, { additionalProperties: false }),
  }),
  headers: true,
};
