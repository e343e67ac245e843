/**
 * What a stored config must pass: the route-config schema and its rules across keys (the
 * gateway's ConfigKeys, assembled from its plugins; plugin rules such as guardrail params apply when the config is used, merged with
 * the request's header fields), no provider secrets (they belong in integrations: a stored config
 * is answered as is), and integration references that exist (when the integrations plugin is loaded).
 */
import { Errors, type ConfigKeys } from '../../../core/index.js';
import type { Integrations } from '../integrations/contract.js';

/** The part of the integrations service this check reads. */
export type IntegrationLookup = Pick<Integrations, 'bySlug'>;

type Node = Record<string, unknown>;

export function checkStoredConfig(config: Node, keys: ConfigKeys, organisationId: string, integrations: IntegrationLookup | undefined): void {
  const issue = keys.check(config)[0];
  if (issue) throw Errors.invalidConfig(issue.path, issue.rule);
  walk(config, '', keys, organisationId, integrations);
}

/** Provider secrets (the keys plugins declare as secrets) may not be stored: name an integration instead. */
function walk(node: Node, prefix: string, keys: ConfigKeys, organisationId: string, integrations: IntegrationLookup | undefined): void {
  for (const key in node) {
    if (keys.isSecret(key)) {
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
  if (Array.isArray(targets)) targets.forEach((t, i) => walk(t as Node, `${prefix}targets.${i}.`, keys, organisationId, integrations));
}
