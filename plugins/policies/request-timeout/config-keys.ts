/** The `request_timeout` key of a config node (milliseconds), read by this plugin. */
import { HOUR_MS, Type, type PluginConfig } from '../../../core/index.js';

export const REQUEST_TIMEOUT_CONFIG: PluginConfig = {
  // A timer longer than an hour is a mistake (the spec names no cap).
  keys: Type.Object({ request_timeout: Type.Integer({ minimum: 1, maximum: HOUR_MS }) }),
  headers: true,
  groups: [['request_timeout']],
};
