/** The API key record as /v1/api-keys answers it (plugins/admin/api-keys). */
export interface ApiKey {
  id: string;
  name: string;
  type: string;
  workspace_id: string | null;
  user_id: string | null;
  role: string | null;
  scopes: string[];
  status: string;
  created_at: string;
  expires_at: string | null;
  last_reset_at: string | null;
  previous_key_valid_until: string | null;
  has_pending_secret: boolean;
  default_config_id: string | null;
  /** Present on the create and rotate answers only. */
  key?: string;
}

export const KEY_TYPES = ['organisation-service', 'workspace-service', 'workspace-user'] as const;

/** Scopes typed as a list separated by commas, spaces or new lines. */
export function scopesFrom(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}
