/**
 * The services this plugin uses from other plugins, by container token, with the shapes it relies
 * on (plugins never import each other):
 *   - Tokens.KeyStore (auth.api-key): the key records and their life cycle;
 *   - Symbol.for('gw.Directory') and Symbol.for('gw.OrgSettings') (admin.workspaces), optional:
 *     without them workspace ids are taken as given and no organisation key policy applies.
 */
export const DIRECTORY: symbol = Symbol.for('gw.Directory');
export const ORG_SETTINGS: symbol = Symbol.for('gw.OrgSettings');

export type RotationPeriod = 'weekly' | 'monthly';
export type CreatableKeyType = 'organisation-service' | 'workspace-service' | 'workspace-user';

/** A key record as answered (auth.api-key's ApiKeyView). */
export interface ApiKeyView {
  id: string;
  object: 'api-key';
  name: string;
  type: string;
  organisation_id: string | null;
  workspace_id: string | null;
  user_id: string | null;
  role: string | null;
  scopes: string[];
  status: string;
  created_at: string;
  last_updated_at: string;
  expires_at: string | null;
  last_reset_at: string | null;
  rotation_policy: { rotation_period: string; next_rotation_at: string | null; key_transition_period_ms: number | null } | null;
  rotation_period_days: number | null;
  previous_key_valid_until: string | null;
  has_pending_secret: boolean;
}

export interface RotationInput {
  period: RotationPeriod;
  nextRotationAtMs?: number;
  transitionMs?: number;
}

export interface NewKey {
  name: string;
  type: CreatableKeyType;
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

export interface Issued {
  record: ApiKeyView;
  key: string;
}

export interface KeyService {
  now(): number;
  create(input: NewKey): Promise<Issued>;
  get(id: string): Promise<ApiKeyView | undefined>;
  list(filter: KeyFilter, offset: number, limit: number): Promise<{ total: number; data: ApiKeyView[] }>;
  update(id: string, patch: KeyPatch): Promise<ApiKeyView | undefined>;
  delete(id: string): Promise<boolean>;
  rotate(id: string, transitionMs?: number): Promise<Issued | undefined>;
  takePendingSecret(id: string): Promise<string | undefined>;
}

export interface WorkspaceRef {
  id: string;
  slug: string;
  organisation_id: string;
  status: string;
}

export interface Directory {
  /** By id, or by slug within `organisationId`. */
  workspace(idOrSlug: string, organisationId?: string): Promise<WorkspaceRef | undefined>;
  /** A user's membership of a workspace, with the role lower-cased. */
  member(workspaceId: string, userId: string): Promise<{ role: string } | undefined>;
}

export interface OrgSettings {
  get(workspaceId?: string): Promise<Record<string, unknown>>;
}
