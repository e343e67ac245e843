/**
 * The plugins' contracts with each other: the key store satisfies core's KeyStore (checked by the
 * compiler here; the workspaces services are typed by their contract file, which both sides
 * import), and the routes degrade without admin.workspaces.
 */
import { expect } from 'chai';
import type { KeyStore } from '../../../../core/index.js';
import type { ApiKeyStore } from '../../../../plugins/security/api-key-auth/key-store.js';
import ApiKeysPlugin from '../../../../plugins/admin/api-keys/index.js';
import SecretBoxPlugin from '../../../../plugins/security/secret-box/index.js';
import { startGateway, type TestGateway } from '../../../helpers/gateway.js';
import { client } from './helpers.js';

// Compile-time: the key store satisfies core's KeyStore (its consumers' view of it).
export const contracts = {
  keyStore: (store: ApiKeyStore): KeyStore => store,
};

describe('admin.api-keys: composition', () => {
  let gw: TestGateway | undefined;
  afterEach(async () => {
    await gw?.stop();
    gw = undefined;
  });

  it('works without admin.workspaces: workspace ids as given, no organisation policy', async () => {
    gw = await startGateway({ composition: { plugins: [SecretBoxPlugin, ApiKeysPlugin], disable: ['admin.workspaces'] } });
    const owner = client(gw.url, 'gw-test-key');
    const service = await owner.post('/v1/api-keys', { name: 's', type: 'workspace-service', workspace_id: 'ws-anything' });
    expect(service.status, service.text).to.equal(200);
    expect(service.json.workspace_id).to.equal('ws-anything');
    const user = await owner.post('/v1/api-keys', { name: 'u', type: 'workspace-user', workspace_id: 'ws-anything', user_id: 'u-1' });
    expect(user.json).to.deep.include({ role: 'member', rotation_policy: null, expires_at: null });
    expect((await owner.get('/v1/workspaces')).status).to.equal(404);
  });

  it('refuses to boot without security.secret-box, naming it', async () => {
    const error = await startGateway({ composition: { preset: 'none', plugins: ['store.sqlite', 'auth.api-key', ApiKeysPlugin] } }).catch((e: Error) => e);
    expect(String(error)).to.contain('depends on "security.secret-box"');
  });
});
