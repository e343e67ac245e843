/**
 * Which route-config fields an integration holds, which of them are credentials, and how
 * credentials are shown (masked) in answers.
 */
import { ConfigFieldNames, CREDENTIAL_KEY_PATTERN } from '../../../core/index.js';

/**
 * Provider settings an integration may hold in `configurations`: the credential-group fields of
 * the route config (custom_host, deployments, cloud fields ...), except the provider itself,
 * its key (given as `key`) and `virtual_key`.
 */
export const CONFIGURATION_FIELDS: ReadonlySet<string> = new Set(
  ConfigFieldNames.filter((f) => CREDENTIAL_KEY_PATTERN.test(f) && f !== 'provider' && f !== 'api_key' && f !== 'virtual_key'),
);

/** Configuration fields that are credentials: sealed at rest with `key`, masked in every answer. */
export const SECRET_CONFIGURATION_FIELDS: ReadonlySet<string> = new Set([
  'Authorization', 'cloudA_access_key_id', 'cloudA_secret_access_key', 'cloudA_session_token', 'cloudC_service_account_json',
]);

const MASK = '********';

/** A credential as answers show it: the last 4 characters of a long string, nothing of the rest. */
export function mask(value: unknown): string {
  return typeof value === 'string' && value.length > 12 ? MASK + value.slice(-4) : MASK;
}

/** Whether a value sent on update is the mask we answered (a GET → edit → PUT round trip): keep the stored secret. */
export function isMask(value: unknown, shown: string | undefined): boolean {
  return typeof value === 'string' && value === shown;
}
