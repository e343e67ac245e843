/** Whether this provider drops (instead of refusing) request fields the Messages API lacks. */
import { Type, type PluginConfig } from '../../core/index.js';

export const ANTHROPIC_CONFIG: PluginConfig = {
  keys: Type.Object({ strict_compat_compliance: Type.Boolean() }),
  headers: true,
};
