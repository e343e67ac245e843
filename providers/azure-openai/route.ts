/**
 * Where an Azure request goes, from the target's settings (spec §2.1 cloudB fields):
 *
 * Azure OpenAI (no cloudB_deployment_type):
 *   https://{resource}.openai.azure.com/openai/deployments/{deployment}/{path}?api-version={v}
 *   resource:   resource_name, else cloudB_resource_name
 *   deployment: the `deployments` item whose alias equals the request's model, else deployment_id /
 *               cloudB_deployment_id / cloudB_deployment_name, else the `is_default` item;
 *               api-version from that item, or api_version / cloudB_api_version for the named one.
 * Azure AI (cloudB_deployment_type):
 *   serverless  https://{name}.{region}.models.ai.azure.com/{path}
 *   managed     https://{name}.{region}.inference.ml.azure.com/{path}
 *   name: cloudB_endpoint_name, else cloudB_deployment_name; region: cloudB_region;
 *   ?api-version= only when one is configured.
 * `custom_host` replaces the origin (`https://{host}`); the path layout below it stays.
 */
import { Errors, type ConfigNode } from '../../core/index.js';
import type { Deployment as DeploymentItem } from './config-keys.js';

export type AzureKind = 'openai' | 'serverless' | 'managed';

export function azureKind(target: ConfigNode): AzureKind {
  const type = target['cloudB_deployment_type'];
  return type === 'serverless' || type === 'managed' ? type : 'openai';
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export function resourceName(t: ConfigNode): string | undefined {
  return str(t['resource_name']) ?? str(t['cloudB_resource_name']);
}

export function namedDeployment(t: ConfigNode): string | undefined {
  return str(t['deployment_id']) ?? str(t['cloudB_deployment_id']) ?? str(t['cloudB_deployment_name']);
}

export function namedApiVersion(t: ConfigNode): string | undefined {
  return str(t['api_version']) ?? str(t['cloudB_api_version']);
}

export function endpointName(t: ConfigNode): string | undefined {
  return str(t['cloudB_endpoint_name']) ?? str(t['cloudB_deployment_name']);
}

export interface Deployment {
  id: string;
  apiVersion: string | undefined;
}

/** The deployment serving `model`; undefined when neither an alias, a named one nor a default fits. */
export function deploymentFor(t: ConfigNode, model: unknown): Deployment | undefined {
  const list = t['deployments'] as DeploymentItem[] | undefined;
  if (list && typeof model === 'string') {
    for (const d of list) if (d.alias === model) return { id: d.deployment_id, apiVersion: d.api_version };
  }
  const named = namedDeployment(t);
  if (named) return { id: named, apiVersion: namedApiVersion(t) };
  if (list) for (const d of list) if (d.is_default) return { id: d.deployment_id, apiVersion: d.api_version };
  return undefined;
}

function origin(t: ConfigNode, host: () => string): string {
  const custom = str(t.custom_host);
  if (!custom) return `https://${host()}`;
  return custom.endsWith('/') ? custom.slice(0, -1) : custom;
}

/** Azure OpenAI URL for an operation path such as `/chat/completions`. */
export function openaiUrl(t: ConfigNode, operation: string, model: unknown): string {
  const deployment = deploymentFor(t, model);
  if (!deployment) {
    throw Errors.invalidRequest(
      `provider azure-openai: model ${JSON.stringify(model)} matches no alias in config.deployments and no deployment is named or is_default`,
      'model', 'unknown_deployment',
    );
  }
  const base = origin(t, () => `${resourceName(t)}.openai.azure.com`);
  return `${base}/openai/deployments/${encodeURIComponent(deployment.id)}${operation}?api-version=${encodeURIComponent(deployment.apiVersion ?? '')}`;
}

/** Azure AI (serverless or managed) URL for a path such as `/v1/chat/completions`. */
export function aiUrl(t: ConfigNode, kind: 'serverless' | 'managed', path: string): string {
  const domain = kind === 'serverless' ? 'models.ai.azure.com' : 'inference.ml.azure.com';
  const base = origin(t, () => `${endpointName(t)}.${str(t['cloudB_region'])}.${domain}`);
  const version = namedApiVersion(t);
  return version ? `${base}${path}?api-version=${encodeURIComponent(version)}` : base + path;
}

/**
 * The root the generic proxy appends a client's `/v1/<rest>` to: Azure OpenAI's v1 API
 * (`{origin}/openai/v1`, no deployment in the path: the model is in the body), or an Azure AI
 * endpoint's `{origin}/v1`; the configured api-version is added when the client sends none.
 */
export function proxyRoot(t: ConfigNode, kind: AzureKind): { url: string; apiVersion: string | undefined } {
  if (kind === 'openai') return { url: `${origin(t, () => `${resourceName(t)}.openai.azure.com`)}/openai/v1`, apiVersion: undefined };
  const domain = kind === 'serverless' ? 'models.ai.azure.com' : 'inference.ml.azure.com';
  return { url: `${origin(t, () => `${endpointName(t)}.${str(t['cloudB_region'])}.${domain}`)}/v1`, apiVersion: namedApiVersion(t) };
}
