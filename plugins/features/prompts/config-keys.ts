/** The `prompt_id` key of a config node, read by this plugin. */
import { Type, type PluginConfig } from '../../../core/index.js';

export const PROMPTS_CONFIG: PluginConfig = {
  keys: Type.Object({ prompt_id: Type.String() }),
  headers: true,
  groups: [['prompt_id']],
};
