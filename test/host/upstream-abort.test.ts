/**
 * A client that goes away aborts its upstream call, on the default preset where no plugin makes an
 * AbortSignal (the transport listens to the request itself): while the provider has not answered,
 * mid-stream, and with retries configured (no further try after the abort).
 */
import { expect } from 'chai';
import { startMockOpenAI, type MockOpenAI } from '../fixtures/mock-openai.js';
import { CHAT_BODY, configHeaders, directHeaders, postJson, startGateway, type TestGateway } from '../helpers/gateway.js';
import { until } from '../plugins/policies/retry/probes.js';

describe('client abort reaches the upstream call (default preset)', function () {
  this.timeout(10_000);
  let gw: TestGateway;
  let mock: MockOpenAI;

  before(async () => {
    gw = await startGateway();
  });
  after(async () => {
    await gw.stop();
  });
  beforeEach(async () => {
    mock = await startMockOpenAI();
  });
  afterEach(async () => {
    await mock.close();
  });

  /** Sends a chat request that the test can abort; its promise settles with the response or the abort error. */
  function send(headers: Record<string, string>, body: unknown = CHAT_BODY) {
    const client = new AbortController();
    const pending = fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers, body: JSON.stringify(body), signal: client.signal })
      .catch((e: Error) => e);
    return { client, pending };
  }

  it('closes the upstream connection when the client goes away before the provider answers', async () => {
    mock.next({ hang: true });
    const { client, pending } = send(directHeaders(mock));
    await until(() => mock.requests.length === 1);
    expect(mock.openSockets()).to.equal(1);
    client.abort();
    expect(await pending).to.be.instanceOf(Error);
    await until(() => mock.openSockets() === 0, 1000);
  });

  it('closes the upstream connection when the client goes away mid-stream, before the next chunk comes', async () => {
    // The next chunk comes long after the deadline: only the abort itself can close the connection in time.
    const slow = await startMockOpenAI({ streamChunkDelayMs: 5000 });
    try {
      const { client, pending } = send(directHeaders(slow), { ...CHAT_BODY, stream: true });
      const response = await pending;
      expect(response).to.be.instanceOf(Response);
      const first = await (response as Response).body!.getReader().read();
      expect(Buffer.from(first.value!).toString()).to.match(/^data: /);
      expect(slow.openSockets()).to.equal(1);
      client.abort();
      await until(() => slow.openSockets() === 0, 1000);
    } finally {
      await slow.close();
    }
  });

  it('makes no further try once the client went away, with retries configured', async () => {
    mock.next({ hang: true });
    const config = { provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`, retry: { attempts: 3, on_status_codes: [499, 500, 502, 503] } };
    const { client, pending } = send(configHeaders(config));
    await until(() => mock.requests.length === 1);
    client.abort();
    expect(await pending).to.be.instanceOf(Error);
    await until(() => mock.openSockets() === 0, 1000);
    await new Promise((r) => setTimeout(r, 200));
    expect(mock.requests).to.have.length(1);
  });

  it('serves the next request on the same gateway normally', async () => {
    const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock));
    expect(reply.status).to.equal(200);
  });
});
