/**
 * What a Vertex AI target says about where and as whom to call: region, project, credentials,
 * and the URL layout `{base}/projects/{project}/locations/{region}/publishers/{publisher}/models/{model}:{method}`.
 * `custom_host` replaces the base (`https://{region}-aiplatform.googleapis.com/v1`, version segment
 * included); the path layout below it stays.
 */
import { Errors, type ConfigNode, type Issue, type ServiceAccount } from '../../core/index.js';

export const PROVIDER_ID = 'vertex-ai';

export type { ServiceAccount };

// Region and project end up in the host name and the path: only plain identifiers may get there.
const REGION = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const PROJECT = /^[A-Za-z0-9][A-Za-z0-9.:_-]*$/;
const HTTP_URL = /^https?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/;

export function serviceAccountOf(target: ConfigNode): ServiceAccount | undefined {
  const sa = target['cloudC_service_account_json'];
  return sa && typeof sa === 'object' ? (sa as ServiceAccount) : undefined;
}

export function projectOf(target: ConfigNode): string | undefined {
  const project = target['cloudC_project_id'];
  if (typeof project === 'string' && project !== '') return project;
  const fromKey = serviceAccountOf(target)?.project_id;
  return typeof fromKey === 'string' && fromKey !== '' ? fromKey : undefined;
}

/** The API base including `/v1`: custom_host, the global endpoint, or the regional one. */
export function baseUrlOf(target: ConfigNode): string {
  const custom = target.custom_host;
  if (typeof custom === 'string') return custom.endsWith('/') ? custom.slice(0, -1) : custom;
  const region = target['cloudC_region'] as string;
  return region === 'global' ? 'https://aiplatform.googleapis.com/v1' : `https://${region}-aiplatform.googleapis.com/v1`;
}

const MODEL = /^[A-Za-z0-9][A-Za-z0-9._@-]*$/;

/** The model id goes into the URL path: refuse anything that could change the path. */
export function checkedModel(model: unknown): string {
  if (typeof model === 'string' && MODEL.test(model)) return model;
  throw Errors.invalidBody('model', `must be a ${PROVIDER_ID} model id (letters, digits, ".", "_", "-", "@")`);
}

export function modelUrl(target: ConfigNode, publisher: 'google' | 'anthropic', model: string, method: string): string {
  return `${baseUrlOf(target)}/projects/${projectOf(target)}/locations/${target['cloudC_region']}/publishers/${publisher}/models/${model}:${method}`;
}

/** Rules checked when the config is validated (never per request later). */
export function validateTarget(target: ConfigNode, path: string): Issue[] {
  const at = (key: string) => (path ? `${path}.${key}` : key);
  const issues: Issue[] = [];
  const region = target['cloudC_region'];
  if (region === undefined) issues.push({ path: at('cloudC_region'), rule: `is required for provider "${PROVIDER_ID}" (e.g. "us-central1" or "global")` });
  else if (typeof region !== 'string' || !REGION.test(region)) issues.push({ path: at('cloudC_region'), rule: 'must be a region name such as "us-central1" or "global"' });

  const sa = target['cloudC_service_account_json'];
  if (sa !== undefined) checkServiceAccount(sa, at('cloudC_service_account_json'), issues);
  else if (target.api_key === undefined && target.custom_host === undefined) {
    issues.push({ path: at('cloudC_service_account_json'), rule: `or api_key (an access token) is required for provider "${PROVIDER_ID}"` });
  }

  const explicitProject = target['cloudC_project_id'];
  if (explicitProject !== undefined) {
    if (typeof explicitProject !== 'string' || !PROJECT.test(explicitProject)) issues.push({ path: at('cloudC_project_id'), rule: 'must be a Google Cloud project id' });
  } else if (projectOf(target) === undefined) {
    issues.push({ path: at('cloudC_project_id'), rule: `is required for provider "${PROVIDER_ID}" unless cloudC_service_account_json has project_id` });
  }
  return issues;
}

function checkServiceAccount(sa: unknown, path: string, issues: Issue[]): void {
  if (!sa || typeof sa !== 'object' || Array.isArray(sa)) {
    issues.push({ path, rule: 'must be a service-account key object' });
    return;
  }
  const s = sa as Record<string, unknown>;
  if (typeof s['client_email'] !== 'string' || s['client_email'] === '') issues.push({ path: `${path}.client_email`, rule: 'is required (a string)' });
  const key = s['private_key'];
  // A cheap shape check: the key itself is parsed only when a token is minted.
  if (typeof key !== 'string' || !key.includes('PRIVATE KEY-----')) issues.push({ path: `${path}.private_key`, rule: 'is required (a PEM private key)' });
  const tokenUri = s['token_uri'];
  if (tokenUri !== undefined && (typeof tokenUri !== 'string' || !HTTP_URL.test(tokenUri))) issues.push({ path: `${path}.token_uri`, rule: 'must be an http(s) URL' });
  const project = s['project_id'];
  if (project !== undefined && (typeof project !== 'string' || !PROJECT.test(project))) issues.push({ path: `${path}.project_id`, rule: 'must be a Google Cloud project id' });
}
