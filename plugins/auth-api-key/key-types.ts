/** What the key store takes and gives (key-store.ts). Times are milliseconds since the epoch. */
import type { ApiKeyView, KeyType, RotationPeriod } from './key-rows.js';
import type { VerdictCacheOptions } from './verdict-cache.js';

/** Seals pending secrets (security.secret-box's service). */
export interface Sealer {
  encrypt(plaintext: string, context?: string): string;
  decrypt(sealed: string, context?: string): string;
}

export interface KeyStoreOptions extends VerdictCacheOptions {
  /** Prefix of new secrets (env API_KEY_PREFIX). */
  prefix: string;
  /** Transition window of a rotation when neither the request nor the key's policy sets one. */
  defaultTransitionMs: number;
  /** The sealer for pending secrets, looked up when first needed (it may be registered after this plugin). */
  sealer: () => Sealer | undefined;
}

export interface RotationInput {
  period: RotationPeriod;
  /** Default: now + period. */
  nextRotationAtMs?: number;
  /** Default: the store's default transition. */
  transitionMs?: number;
}

export interface NewKey {
  name: string;
  type: Exclude<KeyType, 'organisation-owner'>;
  organisationId: string;
  workspaceId?: string;
  userId?: string;
  role?: string;
  scopes: readonly string[];
  expiresAtMs?: number;
  rotation?: RotationInput;
}

export interface KeyPatch {
  name?: string;
  scopes?: readonly string[];
  expiresAtMs?: number | null;
  rotation?: RotationInput | null;
}

export interface KeyFilter {
  organisationId: string;
  type?: string;
  workspaceId?: string;
  userId?: string;
  statuses?: readonly string[];
}

/** A key record with its new secret, shown this once. */
export interface Issued {
  record: ApiKeyView;
  key: string;
}

export interface IssueOptions {
  /** Keep the secret sealed until `takePendingSecret` (nobody receives it now). */
  pending?: boolean;
}
