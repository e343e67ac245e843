/** Target rules checked when the config is validated, so a request never fails later for them. */
import type { ConfigNode, Issue } from '../../core/index.js';
import type { Deployment } from './config-keys.js';
import { azureKind, endpointName, namedApiVersion, namedDeployment, resourceName } from './route.js';

const PROVIDER = 'provider "azure-openai"';

export function validateAzureTarget(t: ConfigNode, path: string): Issue[] {
  const at = (key: string) => (path ? `${path}.${key}` : key);
  const issues: Issue[] = [];
  if (t.api_key === undefined && t['Authorization'] === undefined) {
    issues.push({ path: at('api_key'), rule: `is required for ${PROVIDER} (or Authorization: "Bearer <token>")` });
  }
  const kind = azureKind(t);
  const custom = t.custom_host !== undefined;
  if (kind !== 'openai') {
    if (!custom && !endpointName(t)) issues.push({ path: at('cloudB_endpoint_name'), rule: `is required for ${PROVIDER} ${kind} deployments (or custom_host)` });
    if (!custom && t['cloudB_region'] === undefined) issues.push({ path: at('cloudB_region'), rule: `is required for ${PROVIDER} ${kind} deployments (or custom_host)` });
    return issues;
  }
  if (!custom && !resourceName(t)) issues.push({ path: at('resource_name'), rule: `is required for ${PROVIDER} (or cloudB_resource_name, or custom_host)` });
  const list = (t['deployments'] as Deployment[] | undefined) ?? [];
  const named = namedDeployment(t);
  if (!named && list.length === 0) issues.push({ path: at('deployment_id'), rule: `is required for ${PROVIDER} (or deployments)` });
  if (named && !namedApiVersion(t)) issues.push({ path: at('api_version'), rule: `is required with a named deployment for ${PROVIDER} (or cloudB_api_version)` });
  let defaults = 0;
  for (let i = 0; i < list.length; i++) {
    if (list[i]!.is_default && ++defaults > 1) issues.push({ path: at(`deployments.${i}.is_default`), rule: 'only one deployment may be the default' });
  }
  return issues;
}
