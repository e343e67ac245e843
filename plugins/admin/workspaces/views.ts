/** The records the routes answer with. */
import type { MemberRow, NewUserRow } from './people-repo.js';
import type { Workspace } from './directory.js';

export function workspaceView(workspace: Workspace) {
  const row = workspace.row;
  return {
    id: row.id,
    object: 'workspace',
    slug: row.slug,
    name: row.name,
    description: row.description,
    status: row.status,
    is_default: row.is_default === 1,
    organisation_id: row.organisation_id,
    created_at: row.created_at,
    last_updated_at: row.last_updated_at,
    archived_at: row.archived_at,
    default_config_id: row.default_config_id,
  };
}

export function userView(row: NewUserRow) {
  return {
    id: row.id,
    object: 'user',
    email: row.email,
    name: row.name,
    role: row.role,
    organisation_id: row.organisation_id,
    created_at: row.created_at,
    last_updated_at: row.last_updated_at,
  };
}

export function memberView(row: MemberRow) {
  return {
    object: 'workspace-member',
    workspace_id: row.workspace_id,
    user_id: row.user_id,
    role: row.role,
    email: row.email,
    name: row.name,
    created_at: row.created_at,
    last_updated_at: row.last_updated_at,
  };
}
