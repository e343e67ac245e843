/** The body-rewriting keys of a config node, read by this plugin. */
import { Type, type PluginConfig } from '../../../core/index.js';

export const PARAMS_CONFIG: PluginConfig = {
  keys: Type.Object({
    override_params: Type.Object({}),
    default_params: Type.Object({}),
    drop_params: Type.Array(Type.String({ minLength: 1, errorMessage: 'must be a non-empty string' })),
  }),
  headers: true,
};
