/** identity.jwt composed without admin.workspaces: the gateway boots; a JWT caller, who would be a person, is a 500 naming the plugin to load. */
import { expect } from 'chai';
import JwtIdentityPlugin from '../../../../plugins/identity/jwt/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { startGateway, type TestGateway } from '../../../helpers/gateway.js';
import { chatAs, providerConfig, putSettings, settingsFor, signingKey, startKeyServer, token, type KeyServer } from './harness.js';

describe('identity.jwt: composition', () => {
  let mock: MockOpenAI;
  let keys: KeyServer;
  let gw: TestGateway;

  before(async () => {
    mock = await startMockOpenAI();
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
    await keys?.close();
  });

  it('boots without admin.workspaces; a JWT caller is then a 500 naming it', async () => {
    const rsa = await signingKey('rsa-1');
    keys = await startKeyServer([rsa]);
    gw = await startGateway({ composition: { plugins: [JwtIdentityPlugin], disable: ['admin.workspaces'] } });
    expect((await putSettings(gw, settingsFor(keys))).status).to.equal(200);
    const reply = await chatAs(gw, await token(rsa), providerConfig(mock));
    expect(reply.status).to.equal(500);
    expect(reply.json.error.message).to.equal('JWT callers are people of an organisation: load admin.workspaces');
    expect(mock.requests).to.have.length(0);
  });
});
