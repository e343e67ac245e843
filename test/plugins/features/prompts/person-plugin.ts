/**
 * Test-only: a person's principal as the identity plugins set it (SSO session or JWT caller, see the
 * shared people model), from an `x-test-person: <role>:<workspaceId>:<userId>` header, set before the
 * API-key check (which then skips). `owner` and `admin` without a workspace are organisation-level;
 * any other role acts in the named workspace as a `workspace-user` principal with the default scopes
 * of a workspace-user key (none of them about prompts).
 */
import { Stage, type Plugin, type PluginApi } from '../../../../core/index.js';

export const DEFAULT_USER_KEY_SCOPES = ['api_keys.read', 'api_keys.rotate', 'workspaces.read', 'workspace_users.read'];

export default class TestPersonPlugin implements Plugin {
  static readonly manifest = { id: 'test.person', description: 'person principal from x-test-person' };

  apply(api: PluginApi): void {
    api.hooks.onRequest.tap({ name: api.id, stage: Stage.BEFORE_AUTH }, (ctx) => {
      const header = ctx.request.headers['x-test-person'];
      if (header === undefined) return;
      const [role = 'member', workspaceId = '', userId = 'u'] = header.split(':');
      const keyId = `session:${userId}`;
      ctx.principal = workspaceId === ''
        ? { keyId, type: 'person', userId, organisationId: 'default', role, scopes: ['*'], via: 'session' }
        : { keyId, type: 'workspace-user', userId, organisationId: 'default', workspaceId, role, scopes: DEFAULT_USER_KEY_SCOPES, via: 'session' };
    });
  }
}
