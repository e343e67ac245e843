/** route.proxy with a stored integration: `x-gw-provider: @slug` sends the stored key to the stored host. */
import { expect } from 'chai';
import ProxyPlugin from '../../../../plugins/routing/proxy/index.js';
import { startEchoUpstream, type EchoUpstream } from '../../../fixtures/echo-upstream.js';
import { TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { call, startAdminGateway } from '../../admin/integrations/harness.js';

const STORED_KEY = 'sk-stored-proxy-aaaaaaaaaaaa';

describe('route.proxy: stored integrations (end to end)', () => {
  let gw: TestGateway;
  let echo: EchoUpstream;

  before(async () => {
    echo = await startEchoUpstream();
    gw = await startAdminGateway({ plugins: [ProxyPlugin] });
    const created = await call(gw, 'POST', '/v1/integrations', { slug: 'acct-proxy', provider: 'openai', key: STORED_KEY, configurations: { custom_host: `${echo.url}/v1` } });
    expect(created.status, created.text).to.equal(200);
  });
  after(async () => {
    await gw?.stop();
    await echo?.close();
  });

  it('x-gw-provider: @slug proxies with the stored key and host; the client sends no credential', async () => {
    const res = await fetch(`${gw.url}/v1/vector_stores?limit=3`, { headers: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': '@acct-proxy' } });
    expect(res.status, await res.clone().text()).to.equal(200);
    expect(await res.json()).to.deep.include({ path: '/v1/vector_stores', query: { limit: '3' } });
    expect(echo.requests.at(-1)!.headers['authorization']).to.equal(`Bearer ${STORED_KEY}`);
  });

  it('an unknown @slug is refused before anything is sent', async () => {
    const before = echo.requests.length;
    const res = await fetch(`${gw.url}/v1/vector_stores`, { headers: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': '@nobody' } });
    expect(res.status).to.be.within(400, 404);
    expect(JSON.stringify(await res.json())).to.not.include(STORED_KEY);
    expect(echo.requests.length).to.equal(before);
  });
});
