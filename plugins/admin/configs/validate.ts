/**
 * What a stored config must pass: the route-config schema and its rules across keys (core's
 * checkConfig; plugin rules such as guardrail params apply when the config is used, merged with
 * the request's header fields), no provider secrets (they belong in integrations: a stored config
 * is answered as is), and integration references that exist (when the integrations plugin is loaded).
 */
import { checkConfig, Errors } from '../../../core/index.js';
import type { Integrations } from '../integrations/contract.js';

/** Provider credentials a stored config may not hold: name an integration instead. */
const SECRET_FIELDS: ReadonlySet<string> = new Set([
  'api_key', 'Authorization', 'cloudA_access_key_id', 'cloudA_secret_access_key', 'cloudA_session_token', 'cloudC_service_account_json',
]);

/** The part of the integrations service this check reads. */
export type IntegrationLookup = Pick<Integrations, 'bySlug'>;

type Node = Record<string, unknown>;

export function checkStoredConfig(config: Node, organisationId: string, integrations: IntegrationLookup | undefined): void {
  const issue = checkConfig(config)[0];
  if (issue) throw Errors.invalidConfig(issue.path, issue.rule);
  walk(config, '', organisationId, integrations);
}

function walk(node: Node, prefix: string, organisationId: string, integrations: IntegrationLookup | undefined): void {
  for (const key in node) {
    if (SECRET_FIELDS.has(key)) {
      throw Errors.invalidConfig(prefix + key, 'a stored config cannot hold provider credentials: store them in an integration and name it with provider "@slug" (or virtual_key)');
    }
  }
  if (integrations) {
    const provider = node['provider'];
    if (typeof provider === 'string' && provider.length > 1 && provider.startsWith('@')) {
      const found = integrations.bySlug(provider, organisationId);
      if (!found || found.default_provider_slug === null) throw Errors.invalidConfig(prefix + 'provider', `no integration "${provider}"`);
    }
    const virtualKey = node['virtual_key'];
    if (typeof virtualKey === 'string' && !integrations.bySlug(virtualKey, organisationId)) {
      throw Errors.invalidConfig(prefix + 'virtual_key', `no integration or virtual key "${virtualKey}"`);
    }
  }
  const targets = node['targets'];
  if (Array.isArray(targets)) targets.forEach((t, i) => walk(t as Node, `${prefix}targets.${i}.`, organisationId, integrations));
}
