/** The Azure OpenAI (resource, deployment) and Azure AI (cloudB) fields of a target, read by this provider. */
import { StringEnum, Type, type PluginConfig, type Static } from '../../core/index.js';

const Deployment = Type.Object({
  deployment_id: Type.String(),
  alias: Type.String(),
  api_version: Type.String(),
  is_default: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });

/** One item of `deployments`: a model alias served by a named deployment. */
export type Deployment = Static<typeof Deployment>;

const keys = {
  resource_name: Type.String(),
  deployment_id: Type.String(),
  api_version: Type.String(),
  deployments: Type.Array(Deployment),
  cloudB_region: Type.String(),
  cloudB_deployment_name: Type.String(),
  cloudB_deployment_type: StringEnum(['serverless', 'managed']),
  cloudB_endpoint_name: Type.String(),
  cloudB_api_version: Type.String(),
  cloudB_resource_name: Type.String(),
  cloudB_deployment_id: Type.String(),
  cloudB_model_name: Type.String(),
  // Token auth (Entra ID) instead of an api key.
  Authorization: Type.String({ pattern: '^Bearer \\S', errorMessage: 'must start with "Bearer "' }),
};

export const AZURE_CONFIG: PluginConfig = {
  keys: Type.Object(keys),
  headers: true,
  credentials: Object.keys(keys),
  secrets: ['Authorization'],
  groups: [
    ['provider', 'cloudB_deployment_name', 'cloudB_deployment_type', 'cloudB_region', 'cloudB_api_version'],
    ['provider', 'cloudB_endpoint_name', 'cloudB_deployment_type'],
    ['provider', 'Authorization'],
  ],
};
