/** The stored config record as /v1/configs answers it (plugins/admin/configs). */
export interface StoredConfig {
  id: string;
  slug: string;
  name: string;
  workspace_id: string | null;
  /** The latest version in lists; the one asked for with `?version=N` on GET /v1/configs/:id. */
  version: number;
  latest_version?: number;
  created_at: string;
  last_updated_at: string;
  config?: Record<string, unknown>;
}
