/** Workspace, member and user records as /v1/workspaces and /v1/users answer them (plugins/admin/workspaces). */
export interface Workspace {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  status: string;
  is_default: boolean;
  created_at: string;
  archived_at: string | null;
  default_config_id: string | null;
}

export interface Member {
  workspace_id: string;
  user_id: string;
  role: string;
  email: string | null;
  name: string | null;
  created_at: string;
}

export interface User {
  id: string;
  email: string;
  name: string | null;
  role: string;
}

export const WORKSPACE_ROLES = ['member', 'manager', 'admin'] as const;
