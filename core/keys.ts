/**
 * The gateway API key service (`Services.KeyStore`, provided by auth.api-key) as its consumers see it:
 * the admin routes (admin.api-keys) and workspace membership (admin.workspaces).
 * Times in inputs are milliseconds since the epoch; records answer ISO 8601 and never a secret.
 */
import type { Principal } from './types.js';

export type KeyType = 'organisation-owner' | 'organisation-service' | 'workspace-service' | 'workspace-user';
export type RotationPeriod = 'weekly' | 'monthly';

/** The record the admin routes answer with. */
export interface ApiKeyView {
  id: string;
  object: 'api-key';
  name: string;
  type: string;
  organisation_id: string | null;
  workspace_id: string | null;
  user_id: string | null;
  /** The member's workspace role, for workspace-user keys. */
  role: string | null;
  scopes: string[];
  status: string;
  created_at: string;
  last_updated_at: string;
  expires_at: string | null;
  last_reset_at: string | null;
  rotation_policy: { rotation_period: string; next_rotation_at: string | null; key_transition_period_ms: number | null } | null;
  rotation_period_days: number | null;
  /** While the secret before the last rotation still works: until when. */
  previous_key_valid_until: string | null;
  /** A secret made by scheduled rotation or auto-creation waits to be read once. */
  has_pending_secret: boolean;
  /** The stored config that routes this key's requests that name none (wins over the workspace's). */
  default_config_id: string | null;
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
  /** Owner keys are made by the store itself (the bootstrap key), never through this. */
  type: Exclude<KeyType, 'organisation-owner'>;
  organisationId: string;
  workspaceId?: string;
  userId?: string;
  role?: string;
  scopes: readonly string[];
  expiresAtMs?: number;
  rotation?: RotationInput;
  defaultConfigId?: string;
}

export interface KeyPatch {
  name?: string;
  scopes?: readonly string[];
  expiresAtMs?: number | null;
  rotation?: RotationInput | null;
  defaultConfigId?: string | null;
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

export interface KeyStore {
  now(): number;
  /** The principal of a valid secret, or null. */
  verify(secret: string): Promise<Principal | null>;
  ownerOrganisationId(): Promise<string | undefined>;
  create(input: NewKey, options?: IssueOptions): Promise<Issued>;
  get(id: string): Promise<ApiKeyView | undefined>;
  list(filter: KeyFilter, offset: number, limit: number): Promise<{ total: number; data: ApiKeyView[] }>;
  update(id: string, patch: KeyPatch): Promise<ApiKeyView | undefined>;
  delete(id: string): Promise<boolean>;
  rotate(id: string, transitionMs?: number, options?: IssueOptions): Promise<Issued | undefined>;
  takePendingSecret(id: string): Promise<string | undefined>;
  /** Deletes a user's workspace-user keys (in one workspace, or everywhere); answers how many. */
  deleteUserKeys(userId: string, workspaceId?: string): Promise<number>;
  /** Every key a user holds or held (deleted ones too: their logs are still the user's). */
  idsOfUser(userId: string): Promise<string[]>;
  /** A member's keys follow their new workspace role. */
  setUserRole(userId: string, workspaceId: string, role: string): Promise<void>;
  /** Keys of an archived workspace are refused until it is restored. */
  suspendWorkspace(workspaceId: string, suspended: boolean): void;
}
