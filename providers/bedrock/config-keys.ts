/** The cloudA credential fields of a target, read by this provider. */
import { Type, type PluginConfig } from '../../core/index.js';

const keys = {
  cloudA_access_key_id: Type.String(),
  cloudA_secret_access_key: Type.String(),
  cloudA_region: Type.String(),
  cloudA_session_token: Type.String(),
};

export const BEDROCK_CONFIG: PluginConfig = {
  keys: Type.Object(keys),
  headers: true,
  credentials: Object.keys(keys),
  secrets: ['cloudA_access_key_id', 'cloudA_secret_access_key', 'cloudA_session_token'],
  groups: [['provider', 'cloudA_access_key_id', 'cloudA_secret_access_key']],
};
