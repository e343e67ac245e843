/**
 * What this plugin uses from auth.api-key (Tokens.KeyStore), as the shapes it relies on (plugins
 * never import each other), and the tokens of the services it registers for other plugins.
 */
export const ORG_SETTINGS: symbol = Symbol.for('gw.OrgSettings');
export const DIRECTORY: symbol = Symbol.for('gw.Directory');

export interface KeyRecord {
  id: string;
  name: string;
  has_pending_secret: boolean;
}

export interface NewUserKey {
  name: string;
  type: 'workspace-user';
  organisationId: string;
  workspaceId: string;
  userId: string;
  role: string;
  scopes: readonly string[];
  expiresAtMs?: number;
  rotation?: { period: 'weekly' | 'monthly' };
}

export interface KeyService {
  now(): number;
  get(id: string): Promise<KeyRecord | undefined>;
  ownerOrganisationId(): Promise<string | undefined>;
  create(input: NewUserKey, options: { pending: boolean }): Promise<{ record: KeyRecord }>;
  deleteUserKeys(userId: string, workspaceId?: string): Promise<number>;
  idsOfUser(userId: string): Promise<string[]>;
  setUserRole(userId: string, workspaceId: string, role: string): Promise<void>;
  suspendWorkspace(workspaceId: string, suspended: boolean): void;
}
