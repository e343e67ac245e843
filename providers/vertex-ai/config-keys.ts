/** The cloudC project, region and service-account fields of a target, read by this provider. */
import { Type, type PluginConfig } from '../../core/index.js';

const keys = {
  cloudC_project_id: Type.String(),
  cloudC_region: Type.String(),
  cloudC_service_account_json: Type.Object({}),
};

export const VERTEX_CONFIG: PluginConfig = {
  keys: Type.Object(keys),
  headers: true,
  credentials: Object.keys(keys),
  secrets: ['cloudC_service_account_json'],
  groups: [
    ['provider', 'cloudC_region', 'cloudC_service_account_json'],
    ['provider', 'cloudC_region', 'cloudC_project_id'],
  ],
};
