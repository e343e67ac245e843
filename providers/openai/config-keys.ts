/** The OpenAI organization and project a target's calls are billed to, read by this provider. */
import { Type, type PluginConfig } from '../../core/index.js';

export const OPENAI_CONFIG: PluginConfig = {
  keys: Type.Object({ vendorD_organization: Type.String(), vendorD_project: Type.String() }),
  headers: true,
  credentials: ['vendorD_organization', 'vendorD_project'],
};
