/**
 * What this plugin uses from other plugins, by container token, with the shapes it relies on:
 *   - Tokens.KeyStore (auth.api-key): a bearer credential that is not a JWT may be a gateway key;
 *   - DIRECTORY (admin.workspaces, its contract file): people, workspaces and memberships.
 */
export { DIRECTORY } from '../../admin/workspaces/ports.js';

export interface Directory {
  workspace(idOrSlug: string, organisationId?: string): Promise<{ id: string; slug: string; organisation_id: string; status: string } | undefined>;
  findOrCreatePerson(organisationId: string, person: { email: string; name?: string }): Promise<{ id: string; email: string; role: string; created: boolean }>;
  memberships(userId: string): Promise<readonly { workspaceId: string; role: string }[]>;
  joinWorkspace(workspaceId: string, userId: string, role: string): Promise<{ role: string; joined: boolean }>;
}
