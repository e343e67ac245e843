/** The `forward_headers` key of a config node, read by this plugin. */
import { Type, type PluginConfig } from '../../../core/index.js';

export const FORWARD_HEADERS_CONFIG: PluginConfig = {
  keys: Type.Object({ forward_headers: Type.Array(Type.String({ minLength: 1, errorMessage: 'must be a non-empty string' })) }),
  headers: true,
  groups: [['forward_headers']],
};
