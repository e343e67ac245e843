/**
 * `user_api_key_auto_create` (spec §2.3, v1.15): a user joining a workspace gets a default
 * workspace-user key, inheriting `user_api_key_ttl` and the enforced `user_api_key_rotation_period`.
 * Nobody is there to receive its secret, so it waits sealed until an admin reads it once
 * (`GET /v1/api-keys/:id/pending-secret`).
 */
import { MAX_TTL_SECONDS, type ApiKeyView, type KeyStore, type NewKey } from '../../../core/index.js';
import type { Workspace } from './directory.js';
import type { Settings } from './settings.js';

export interface Joiner {
  userId: string;
  email: string;
  name: string | null;
  role: string;
}

export async function createDefaultUserKey(
  keys: KeyStore, settings: Settings, joiner: Joiner, workspace: Workspace, scopes: readonly string[],
): Promise<ApiKeyView | undefined> {
  if (settings['user_api_key_auto_create'] !== true) return undefined;
  const ttl = settings['user_api_key_ttl'];
  const period = settings['user_api_key_rotation_period'];
  const input: NewKey = {
    name: `${joiner.name || joiner.email} (${workspace.row.slug})`,
    type: 'workspace-user',
    organisationId: workspace.row.organisation_id,
    workspaceId: workspace.row.id,
    userId: joiner.userId,
    role: joiner.role,
    scopes,
  };
  if (typeof ttl === 'number') input.expiresAtMs = keys.now() + Math.min(ttl, MAX_TTL_SECONDS) * 1000;
  if (period === 'weekly' || period === 'monthly') input.rotation = { period };
  return (await keys.create(input, { pending: true })).record;
}
