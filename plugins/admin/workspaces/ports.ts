/**
 * The tokens of the services this plugin registers for other plugins (services.ts, people-admin.ts),
 * and their shapes. The key store it uses (Tokens.KeyStore, auth.api-key) has core's KeyStore shape.
 */
export const ORG_SETTINGS: symbol = Symbol.for('gw.OrgSettings');
export const DIRECTORY: symbol = Symbol.for('gw.Directory');
/** Provisioning writes to people (identity.scim): memberships, deactivation, deletion. */
export const PEOPLE_ADMIN: symbol = Symbol.for('gw.PeopleAdmin');

export type { DirectoryService, OrgSettingsService, WorkspaceRef } from './services.js';
export type { PeopleAdmin } from './people-admin.js';
