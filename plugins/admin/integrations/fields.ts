/**
 * Which route-config fields an integration holds, which of them are credentials, and how
 * credentials are shown (masked) in answers.
 */
import type { ConfigKeys } from '../../../core/index.js';

const NOT_CONFIGURATIONS: ReadonlySet<string> = new Set(['provider', 'api_key', 'virtual_key']);

/**
 * Provider settings an integration may hold in `configurations`: the credential keys of the route
 * config (custom_host and what the loaded providers declare: deployments, cloud fields ...), except
 * the provider itself, its key (given as `key`) and `virtual_key`.
 */
export function configurationFields(keys: ConfigKeys): ReadonlySet<string> {
  return new Set(keys.credentialKeys.filter((f) => !NOT_CONFIGURATIONS.has(f)));
}

/** Configuration fields that are secrets: sealed at rest with `key`, masked in every answer. */
export function isSecretConfigurationField(keys: ConfigKeys, field: string): boolean {
  return keys.isSecret(field) && !NOT_CONFIGURATIONS.has(field);
}

const MASK = '********';

/** A credential as answers show it: the last 4 characters of a long string, nothing of the rest. */
export function mask(value: unknown): string {
  return typeof value === 'string' && value.length > 12 ? MASK + value.slice(-4) : MASK;
}

/** Whether a value sent on update is the mask we answered (a GET → edit → PUT round trip): keep the stored secret. */
export function isMask(value: unknown, shown: string | undefined): boolean {
  return typeof value === 'string' && value === shown;
}
