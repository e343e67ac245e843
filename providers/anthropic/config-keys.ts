/**
 * Whether this provider drops (instead of refusing) request fields the Messages API lacks;
 * `strict_open_ai_compliance` is the same switch under the nearest existing gateway's name
 * (strict-compliance.ts), also as the header `x-gw-strict-open-ai-compliance`.
 */
import { Type, type PluginConfig } from '../../core/index.js';

export const ANTHROPIC_CONFIG: PluginConfig = {
  keys: Type.Object({ strict_compat_compliance: Type.Boolean(), strict_open_ai_compliance: Type.Boolean() }),
  headers: true,
};
