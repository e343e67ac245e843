/**
 * With the workspaces plugin's directory loaded, `allowed_workspaces` must name workspaces of the
 * caller's organisation (by id or slug; stored as ids), and resolution checks the caller's
 * workspace id against them.
 */
import { expect } from 'chai';
import { fakeControlPlane } from '../../admin/integrations/harness.js';
import { startVaultMock } from '../../../fixtures/mock-vault.js';
import type { SecretManagerMock } from '../../../fixtures/secret-manager-mock.js';
import { as, call, chatThrough, createReference, mappedIntegration, startSecretsGateway, type SecretsGateway } from './harness.js';

describe('security.secret-references: allowed workspaces against the directory', () => {
  let gw: SecretsGateway;
  let vault: SecretManagerMock;
  before(async () => {
    vault = await startVaultMock({ token: 't', secrets: { 'secret/k': { api_key: 'sk-directory-0123456789' } } });
    gw = await startSecretsGateway({}, {
      plugins: [fakeControlPlane({
        settings: {},
        workspaces: [
          { id: 'ws-1', slug: 'team-a', organisation_id: 'default', status: 'active' },
          { id: 'ws-9', slug: 'elsewhere', organisation_id: 'org-2', status: 'active' },
        ],
      })],
    });
  });
  after(async () => {
    await gw?.stop();
    await vault?.close();
  });

  it('stores slugs as ids and refuses unknown workspaces or those of another organisation', async () => {
    const made = await createReference(gw, { slug: 'dir', manager: 'vault', secret_path: 'k', secret_key: 'api_key', manager_config: { address: vault.url, token: 't' }, allowed_workspaces: ['team-a', 'ws-1'] });
    expect(made.allowed_workspaces).to.deep.equal(['ws-1']);
    for (const ref of ['nope', 'elsewhere']) {
      const res = await call(gw, 'POST', '/v1/secret-references', { slug: 'dir-2', manager: 'env', secret_path: 'GW_SECRET_REF_A', allowed_workspaces: ['team-a', ref] });
      expect(res.status).to.equal(400);
      expect(res.json.error.message).to.equal(`body.allowed_workspaces.1: unknown workspace "${ref}" (not in this organisation)`);
    }
    await mappedIntegration(gw, 'i-dir', 'dir');
    expect((await chatThrough(gw, 'i-dir', as({ workspaceId: 'ws-1', scopes: [] }))).status).to.equal(200);
    expect((await chatThrough(gw, 'i-dir', as({ workspaceId: 'ws-2', scopes: [] }))).status).to.equal(403);
  });
});
