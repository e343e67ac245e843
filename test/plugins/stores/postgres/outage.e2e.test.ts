/**
 * A gateway whose PostgreSQL goes away (a loopback proxy in front of it, cut and restored): requests
 * keep being served with the keys and configs already in memory, control-plane writes answer 503
 * store_unavailable in the envelope, /health says degraded naming the store, and all of it recovers
 * without a restart. Skipped without GW_DATABASE_URL.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, directHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { freshSchema, testDatabaseUrl, urlWithSchema, type TestSchema } from '../../../helpers/pg-schema.js';
import { startTcpProxy, type TcpProxy } from '../../../helpers/tcp-proxy.js';

describe('store.postgres: the store goes away and comes back', function () {
  this.timeout(30_000);
  let proxy: TcpProxy;
  let schema: TestSchema;
  let mock: MockOpenAI;
  let gw: TestGateway;
  let configId: string;

  before(async function () {
    const url = testDatabaseUrl();
    if (!url) this.skip();
    const target = new URL(url!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    schema = await freshSchema();
    const via = new URL(url!);
    via.port = String(proxy.port);
    mock = await startMockOpenAI();
    gw = await startGateway({
      env: { GW_DATABASE_URL: urlWithSchema(via.toString(), schema.name), GW_SECRET_KEY: randomBytes(32).toString('base64') },
      plugins: [
        { use: 'store.postgres', options: { connectTimeoutMs: 300 } },
        // Verdicts go stale at once: a key is read again from the store on every request it can be.
        { use: 'auth.api-key', options: { cacheTtlMs: 0 } },
      ],
    });
    const created = await admin('POST', '/v1/configs', { slug: 'stored', config: { provider: 'openai', custom_host: `${mock.url}/v1` } });
    expect(created.status, JSON.stringify(created.json)).to.equal(200);
    configId = created.json.id;
  });
  after(async () => {
    proxy?.restore();
    await gw?.stop();
    await mock?.close();
    await proxy?.close();
    await schema?.drop();
  });

  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(gw.url + path, {
      method, headers: { 'x-gw-api-key': TEST_API_KEY, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as any };
  };
  const health = async () => (await (await fetch(gw.url + '/health')).json()) as { status: string; checks: Record<string, string> };
  const directChat = () => postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock));
  const storedConfigChat = () => postJson(gw.url, '/v1/chat/completions', CHAT_BODY, {
    'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': configId, authorization: 'Bearer sk-test',
  });

  it('serves, writes and reports ok while the store is there', async () => {
    expect((await directChat()).status).to.equal(200);
    expect((await storedConfigChat()).status).to.equal(200);
    expect(await health()).to.deep.include({ status: 'ok' });
    expect((await health()).checks['store.postgres']).to.equal('ok');
  });

  it('keeps serving requests with the key and the stored config it knows while the store is cut', async () => {
    proxy.cut();
    for (let i = 0; i < 3; i++) {
      const direct = await directChat();
      expect(direct.status, direct.text).to.equal(200);
      const stored = await storedConfigChat();
      expect(stored.status, stored.text).to.equal(200);
    }
  });

  it('answers control-plane writes 503 store_unavailable in the envelope, not 500', async () => {
    const res = await admin('POST', '/v1/configs', { slug: 'during', config: { provider: 'openai', custom_host: `${mock.url}/v1` } });
    expect(res.status).to.equal(503);
    expect(res.json.error).to.deep.equal({
      message: 'the record store (PostgreSQL) is unavailable: the connection was lost; try again shortly',
      type: 'api_error', param: null, code: 'store_unavailable',
    });
    const key = await admin('POST', '/v1/api-keys', { name: 'during', type: 'organisation-service', scopes: ['completions.write'] });
    expect(key.status).to.equal(503);
    expect(key.json.error.code).to.equal('store_unavailable');
  });

  it('says degraded on /health, naming the record store', async () => {
    expect(await health()).to.deep.include({ status: 'degraded' });
    expect((await health()).checks['store.postgres']).to.equal('down');
  });

  it('recovers without a restart when the store comes back', async () => {
    proxy.restore();
    expect(await health()).to.deep.include({ status: 'ok' });
    const res = await admin('POST', '/v1/configs', { slug: 'after', config: { provider: 'openai', custom_host: `${mock.url}/v1` } });
    expect(res.status, JSON.stringify(res.json)).to.equal(200);
    expect((await admin('GET', '/v1/configs/after')).json.slug).to.equal('after');
    expect((await directChat()).status).to.equal(200);
  });
});
