/**
 * Request headers. Token auth: the config's `Authorization` value ("Bearer <token>", e.g. a Microsoft
 * Entra token) is sent as it is. Key auth: Azure OpenAI takes `api-key: <api_key>`; Azure AI
 * endpoints take the key as `Authorization: Bearer <api_key>`. A managed endpoint named together
 * with a deployment (cloudB_deployment_name) is pinned to it with `azureml-model-deployment`.
 */
import type { ConfigNode } from '../../core/index.js';
import type { AzureKind } from './route.js';

export function azureHeaders(t: ConfigNode, kind: AzureKind): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const token = t['Authorization'];
  if (typeof token === 'string') headers['authorization'] = token;
  else if (typeof t.api_key === 'string') {
    if (kind === 'openai') headers['api-key'] = t.api_key;
    else headers['authorization'] = `Bearer ${t.api_key}`;
  }
  const deployment = t['cloudB_deployment_name'];
  if (kind === 'managed' && typeof deployment === 'string' && typeof t['cloudB_endpoint_name'] === 'string') {
    headers['azureml-model-deployment'] = deployment;
  }
  return headers;
}
