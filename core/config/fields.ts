/**
 * Every top-level key of the route config (spec §2.1) with its wire kind, so that direct-mode
 * `x-gw-<field>` request headers can be turned into config fields: integers and numbers parsed,
 * booleans from `true`/`false`, `string[]`/`number[]` from comma lists, objects and arrays from JSON.
 * Must list exactly the keys of `ConfigSchema` (a test checks it).
 */
export type ConfigFieldKind = 'string' | 'integer' | 'number' | 'boolean' | 'string[]' | 'number[]' | 'object' | 'array';

export const ConfigFields: Readonly<Record<string, ConfigFieldKind>> = Object.freeze({
  strategy: 'object',
  targets: 'array',
  provider: 'string',
  api_key: 'string',
  virtual_key: 'string',
  custom_host: 'string',
  name: 'string',
  strict_compat_compliance: 'boolean',
  override_params: 'object',
  default_params: 'object',
  drop_params: 'string[]',
  prompt_id: 'string',
  request_timeout: 'integer',
  cache: 'object',
  retry: 'object',
  cb_config: 'object',
  weight: 'number',
  on_status_codes: 'number[]',
  passthrough: 'boolean',
  forward_headers: 'string[]',
  resource_name: 'string',
  deployment_id: 'string',
  api_version: 'string',
  deployments: 'array',
  before_request_hooks: 'array',
  after_request_hooks: 'array',
  input_guardrails: 'array',
  output_guardrails: 'array',
  cloudA_access_key_id: 'string',
  cloudA_secret_access_key: 'string',
  cloudA_region: 'string',
  cloudA_session_token: 'string',
  cloudB_region: 'string',
  cloudB_deployment_name: 'string',
  cloudB_deployment_type: 'string',
  cloudB_endpoint_name: 'string',
  cloudB_api_version: 'string',
  cloudB_resource_name: 'string',
  cloudB_deployment_id: 'string',
  cloudB_model_name: 'string',
  Authorization: 'string',
  cloudC_project_id: 'string',
  cloudC_region: 'string',
  cloudC_service_account_json: 'object',
  vendorD_organization: 'string',
  vendorD_project: 'string',
});

export const ConfigFieldNames: readonly string[] = Object.freeze(Object.keys(ConfigFields));
