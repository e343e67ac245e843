/**
 * The services this plugin uses from other plugins, by container token, with the shapes it relies
 * on (plugins never import each other):
 *   - Tokens.KeyStore (auth.api-key): the key records and their life cycle, core's KeyStore;
 *   - Symbol.for('gw.Directory') and Symbol.for('gw.OrgSettings') (admin.workspaces), optional:
 *     without them workspace ids are taken as given and no organisation key policy applies.
 */
export const DIRECTORY: symbol = Symbol.for('gw.Directory');
export const ORG_SETTINGS: symbol = Symbol.for('gw.OrgSettings');

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
