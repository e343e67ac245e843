/**
 * What a Bedrock target needs from the config (spec §2.1 cloudA fields): region, access key and
 * secret, optional session token, and the base URLs derived from them (or `custom_host`).
 */
import type { AwsCredentials, ConfigNode, Issue } from '../../core/index.js';

export const PROVIDER_ID = 'bedrock';

export type { AwsCredentials };

/** A region is spliced into a host name, so only region-shaped names are allowed (no host injection). */
const REGION = /^[a-z]{2}(-[a-z0-9]+)+-\d+$/;

const REQUIRED = ['cloudA_region', 'cloudA_access_key_id', 'cloudA_secret_access_key'] as const;

export function validateBedrockTarget(target: ConfigNode, path: string): Issue[] {
  const prefix = path ? path + '.' : '';
  const issues: Issue[] = [];
  for (const key of REQUIRED) {
    const value = target[key];
    if (typeof value !== 'string' || value === '') issues.push({ path: prefix + key, rule: `is required for provider "${PROVIDER_ID}"` });
  }
  const region = target['cloudA_region'];
  if (typeof region === 'string' && region !== '' && !REGION.test(region)) {
    issues.push({ path: prefix + 'cloudA_region', rule: 'must be an AWS region name such as "us-east-1"' });
  }
  return issues;
}

/** The target's region; validated when the config was loaded. */
export function regionOf(target: ConfigNode): string {
  return target['cloudA_region'] as string;
}

export function credentialsOf(target: ConfigNode): AwsCredentials {
  const token = target['cloudA_session_token'];
  return {
    accessKeyId: target['cloudA_access_key_id'] as string,
    secretAccessKey: target['cloudA_secret_access_key'] as string,
    ...(typeof token === 'string' && token !== '' ? { sessionToken: token } : {}),
  };
}

/** `custom_host` (a private endpoint or proxy) keeps Bedrock's own path layout below it. */
function customBase(target: ConfigNode): string | undefined {
  const host = target.custom_host;
  if (typeof host !== 'string') return undefined;
  return host.endsWith('/') ? host.slice(0, -1) : host;
}

/** Converse and ConverseStream. */
export function runtimeBase(target: ConfigNode): string {
  return customBase(target) ?? `https://bedrock-runtime.${regionOf(target)}.amazonaws.com`;
}

/** Rerank lives in the agent runtime service. */
export function agentRuntimeBase(target: ConfigNode): string {
  return customBase(target) ?? `https://bedrock-agent-runtime.${regionOf(target)}.amazonaws.com`;
}
