/**
 * Tables of identity.scim (owner `identity.scim`). Applied steps are never edited: add new ones.
 * People themselves are admin.workspaces' users (`scim_users.user_id` is a user id); these tables
 * keep what SCIM adds: its attributes, groups, group members, group-to-workspace mappings, and the
 * memberships SCIM granted (so that leaving a group removes only those).
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE scim_users (
     user_id TEXT PRIMARY KEY,
     organisation_id TEXT NOT NULL,
     user_name TEXT NOT NULL,
     user_name_key TEXT NOT NULL,
     external_id TEXT,
     display_name TEXT,
     given_name TEXT,
     family_name TEXT,
     email TEXT NOT NULL,
     active INTEGER NOT NULL DEFAULT 1,
     resource TEXT NOT NULL DEFAULT '{}',
     created_at TEXT NOT NULL,
     last_updated_at TEXT NOT NULL,
     UNIQUE (organisation_id, user_name_key)
   )`,
  'CREATE INDEX scim_users_external_id ON scim_users (organisation_id, external_id)',
  `CREATE TABLE scim_groups (
     id TEXT PRIMARY KEY,
     organisation_id TEXT NOT NULL,
     display_name TEXT NOT NULL,
     display_name_key TEXT NOT NULL,
     external_id TEXT,
     created_at TEXT NOT NULL,
     last_updated_at TEXT NOT NULL,
     UNIQUE (organisation_id, display_name_key)
   )`,
  `CREATE TABLE scim_group_members (
     group_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (group_id, user_id)
   )`,
  'CREATE INDEX scim_group_members_user ON scim_group_members (user_id)',
  `CREATE TABLE scim_workspace_mappings (
     id TEXT PRIMARY KEY,
     organisation_id TEXT NOT NULL,
     group_id TEXT NOT NULL,
     workspace_id TEXT NOT NULL,
     role TEXT NOT NULL,
     created_at TEXT NOT NULL,
     UNIQUE (group_id, workspace_id)
   )`,
  'CREATE INDEX scim_workspace_mappings_org ON scim_workspace_mappings (organisation_id, created_at)',
  `CREATE TABLE scim_membership_grants (
     user_id TEXT NOT NULL,
     workspace_id TEXT NOT NULL,
     role TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (user_id, workspace_id)
   )`,
];
