/** How the key store is set up (key-store.ts); its contract with other plugins is core's KeyStore (keys.ts). */
import type { SecretBox } from '../../../core/index.js';
import type { VerdictCacheOptions } from './verdict-cache.js';

export interface KeyStoreOptions extends VerdictCacheOptions {
  /** Prefix of new secrets (env API_KEY_PREFIX). */
  prefix: string;
  /** Transition window of a rotation when neither the request nor the key's policy sets one. */
  defaultTransitionMs: number;
  /** The secret box that seals pending secrets, looked up when first needed (it may be registered after this plugin). */
  sealer: () => SecretBox | undefined;
}
