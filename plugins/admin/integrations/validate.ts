/**
 * Rules an integration must pass before it is stored, so that a stored integration always makes a
 * routable target: configuration fields known and well-typed (the route-config schema), a loaded
 * provider whose own target rules pass, secret mappings onto known fields and allowed references.
 */
import { Errors, type ConfigKeys, type ProviderAdapter, type Registry } from '../../../core/index.js';
import { configurationFields } from './fields.js';
import { targetField } from './credentials.js';
import type { SecretMappingInput } from './schemas.js';
import { referenceProblem, type SecretReferences } from '../../security/secret-references/contract.js';

export interface ContentRules {
  providers: Registry<ProviderAdapter>;
  /** The gateway's route config: which fields exist, which are credentials and secrets. */
  configKeys: ConfigKeys;
  /** The prefix environment variables named by a mapping must have (option secretEnvPrefix). */
  envPrefix: string;
  /** The secret references service, when a plugin provides one (looked up on use). */
  references(): SecretReferences | undefined;
}

/** Checks `configurations`; throws a 400 naming the first offending field. */
export function checkConfigurations(configurations: Record<string, unknown>, keys: ConfigKeys): void {
  const fields = configurationFields(keys);
  for (const key in configurations) {
    if (!fields.has(key)) {
      throw Errors.invalidBody(`configurations.${key}`, `is not an integration configuration field (the provider key goes in "key"; allowed: ${[...fields].join(', ')})`);
    }
  }
  // The same rules as in a route config; a lone group of fields is fine here (no key-group rule).
  for (const issue of keys.check(configurations)) {
    if (issue.path !== '') throw Errors.invalidBody(`configurations.${issue.path}`, issue.rule);
  }
}

/**
 * Mappings onto known fields, each field once, each naming a reference that can resolve: an
 * environment variable with the prefix, or (when the secret references service is loaded) a
 * stored reference of the organisation.
 */
export function checkSecretMappings(mappings: readonly SecretMappingInput[], rules: ContentRules, organisationId: string): void {
  const seen = new Set<string>();
  const fields = configurationFields(rules.configKeys);
  mappings.forEach((m, i) => {
    const field = targetField(m.target_field);
    const valid = m.target_field === 'key' || (m.target_field.startsWith('configurations.') && fields.has(field));
    if (!valid) throw Errors.invalidBody(`secret_mappings.${i}.target_field`, 'must be "key" or "configurations.<field>" of an integration configuration field');
    if (seen.has(field)) throw Errors.invalidBody(`secret_mappings.${i}.target_field`, `maps ${m.target_field} twice`);
    seen.add(field);
    const problem = referenceProblem(m.secret_reference, organisationId, rules.envPrefix, rules.references());
    if (problem) throw Errors.invalidBody(`secret_mappings.${i}.secret_reference`, problem);
  });
}

/**
 * The provider is loaded and accepts the target the integration makes (credentials it requires
 * ...). Mapped fields count as present: their value is only known at request time.
 */
export function checkProviderTarget(
  provider: string, key: string | undefined, configurations: Record<string, unknown>,
  mappings: readonly SecretMappingInput[], rules: ContentRules,
): void {
  const adapter = rules.providers.get(provider);
  if (!adapter) throw Errors.invalidBody('provider', `unknown provider "${provider}" (loaded: ${rules.providers.keys().join(', ')})`);
  const target: Record<string, unknown> = { provider, ...configurations };
  if (key !== undefined) target['api_key'] = key;
  for (const m of mappings) target[targetField(m.target_field)] ??= m.value_format === 'json' ? {} : 'mapped';
  const issue = adapter.validateTarget?.(target, '')[0];
  if (issue) {
    const path = issue.path === 'api_key' ? 'key' : `configurations.${issue.path}`;
    throw Errors.invalidBody(path, issue.rule);
  }
}
