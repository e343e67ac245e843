/**
 * The value a reference stands for, out of what its manager fetched: `secret_key` picks one key of
 * a JSON secret (Vault's data map, a JSON SecretString, a JSON payload); without it, the whole
 * text, or the only value of a one-key map. Messages name keys, never values.
 */
import { isObject, SecretFetchError, type FetchedSecret } from './managers/manager.js';

export function selectValue(fetched: FetchedSecret, secretKey: string | undefined): string {
  if (fetched.kind === 'text' && secretKey === undefined) return fetched.value;
  const map = fetched.kind === 'map' ? fetched.value : parseObject(fetched.value);
  if (secretKey === undefined) {
    const keys = Object.keys(map);
    if (keys.length !== 1) {
      throw new SecretFetchError(`the secret holds ${keys.length} keys: set secret_key to pick one`);
    }
    return asText(map[keys[0]!]);
  }
  if (!Object.prototype.hasOwnProperty.call(map, secretKey)) throw new SecretFetchError(`the secret has no key "${secretKey}"`);
  return asText(map[secretKey]);
}

function parseObject(text: string): Readonly<Record<string, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SecretFetchError('secret_key is set but the secret is not JSON');
  }
  if (!isObject(value)) throw new SecretFetchError('secret_key is set but the secret is not a JSON object');
  return value;
}

/** A string as it is; any other JSON value as JSON text (value_format "json" parses it back). */
function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
