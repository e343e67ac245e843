/**
 * Test-only: a principal from `x-test-org` / `x-test-workspace` headers, set before the API-key
 * check (which then skips), so tests can act as callers of different organisations and workspaces.
 */
import { Stage, type Plugin, type PluginApi } from '../../../../core/index.js';

export default class TestPrincipalPlugin implements Plugin {
  static readonly manifest = { id: 'test.principal', description: 'principal from x-test-org / x-test-workspace' };

  apply(api: PluginApi): void {
    api.hooks.onRequest.tap({ name: api.id, stage: Stage.BEFORE_AUTH }, (ctx) => {
      const org = ctx.request.headers['x-test-org'];
      if (org === undefined) return;
      const workspace = ctx.request.headers['x-test-workspace'];
      ctx.principal = { keyId: `test-${org}-${workspace ?? ''}`, type: workspace ? 'workspace-user' : 'organisation-owner', organisationId: org, workspaceId: workspace, scopes: ['*'] };
    });
  }
}
