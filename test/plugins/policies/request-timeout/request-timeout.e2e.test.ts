/** policy.request-timeout end to end: real gateway, real mock provider (hanging, slow, streaming). */
import { expect } from 'chai';
import OpenAI from 'openai';
import RequestTimeoutPlugin from '../../../../plugins/policies/request-timeout/index.js';
import RetryPlugin from '../../../../plugins/policies/retry/index.js';
import FallbackStrategy from '../../../../plugins/strategies/fallback/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, configHeaders, directHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { arrivalTimes, gaps, until } from '../retry/probes.js';

const TIMEOUT_ENVELOPE = (ms: number) => ({
  error: { message: `request_timeout of ${ms} ms passed before the provider answered`, type: 'timeout_error', param: null, code: 'request_timeout' },
  provider: 'openai',
});

describe('policy.request-timeout end to end', () => {
  let gw: TestGateway;
  let mock: MockOpenAI;

  const target = (m: MockOpenAI = mock) => ({ provider: 'openai', api_key: 'sk-test', custom_host: `${m.url}/v1` });
  const chat = (config: unknown, body: unknown = CHAT_BODY) => postJson(gw.url, '/v1/chat/completions', body, configHeaders(config));
  const timed = async <T>(work: () => Promise<T>) => {
    const started = performance.now();
    const result = await work();
    return { result, ms: performance.now() - started };
  };

  before(async () => {
    gw = await startGateway({ plugins: [RequestTimeoutPlugin, { use: RetryPlugin, options: { baseDelayMs: 1, maxDelayMs: 5 } }] });
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

  it('answers 408 naming the time-out when the provider does not answer, and closes the upstream socket', async () => {
    mock.next({ hang: true });
    const { result: reply, ms } = await timed(() => chat({ ...target(), request_timeout: 100 }));
    expect(reply.status).to.equal(408);
    expect(reply.json).to.deep.equal(TIMEOUT_ENVELOPE(100));
    expect(reply.headers.get('x-gw-provider')).to.equal('openai');
    expect(ms).to.be.within(99, 1500);
    expect(mock.requests).to.have.length(1);
    await until(() => mock.openSockets() === 0);
  });

  it('times out a provider whose answer headers come too late', async () => {
    mock.next({ status: 200, delayMs: 400 });
    const reply = await chat({ ...target(), request_timeout: 80 });
    expect(reply.status).to.equal(408);
    expect(reply.json.error.message).to.include('80 ms');
  });

  it('lets an answer that comes in time through', async () => {
    mock.next({ delayMs: 20 });
    const reply = await chat({ ...target(), request_timeout: 2000 });
    expect(reply.status).to.equal(200);
    expect(reply.json.object).to.equal('chat.completion');
  });

  it('takes the time-out from the x-gw-request-timeout header in direct mode', async () => {
    mock.next({ hang: true });
    const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock, { 'x-gw-request-timeout': '100' }));
    expect(reply.status).to.equal(408);
    expect(reply.json).to.deep.equal(TIMEOUT_ENVELOPE(100));
  });

  it('rejects a request_timeout that is not a positive integer when the config is read', async () => {
    const reply = await chat({ ...target(), request_timeout: 0 });
    expect(reply.status).to.equal(400);
    expect(reply.json.error.message).to.equal('config.request_timeout: must be >= 1');
    expect(mock.requests).to.have.length(0);
  });

  it('rejects a request_timeout past one hour (2^31 ms would fire at once) from the config and from the header', async () => {
    const fromConfig = await chat({ ...target(), request_timeout: 2 ** 31 });
    expect(fromConfig.status, fromConfig.text).to.equal(400);
    expect(fromConfig.json.error).to.include({ message: 'config.request_timeout: must be <= 3600000', param: 'request_timeout', code: 'invalid_config' });
    const fromHeader = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock, { 'x-gw-request-timeout': String(2 ** 53) }));
    expect(fromHeader.status, fromHeader.text).to.equal(400);
    expect(fromHeader.json.error.message).to.contain('request_timeout: must be <= 3600000');
    expect(mock.requests).to.have.length(0);
  });

  it('surfaces as an APIError with status 408 in the openai SDK', async () => {
    mock.next({ hang: true });
    const client = new OpenAI({
      apiKey: 'sk-x', baseURL: `${gw.url}/v1`, maxRetries: 0,
      defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify({ ...target(), request_timeout: 100 }) },
    });
    try {
      await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
      expect.fail('should have thrown');
    } catch (e) {
      expect(e).to.be.instanceOf(OpenAI.APIError);
      expect((e as InstanceType<typeof OpenAI.APIError>).status).to.equal(408);
      expect((e as Error).message).to.include('request_timeout of 100 ms passed before the provider answered');
    }
  });

  describe('with retry', () => {
    it('gives every try its own timer: two tries time out, the third answers', async () => {
      const arrivals = arrivalTimes(mock);
      mock.next({ hang: true }, { hang: true });
      const { result: reply, ms } = await timed(() => chat({ ...target(), request_timeout: 100, retry: { attempts: 2, on_status_codes: [408] } }));
      expect(reply.status).to.equal(200);
      expect(reply.headers.get('x-gw-retry-attempt-count')).to.equal('2');
      expect(mock.requests).to.have.length(3);
      expect(ms).to.be.at.least(199);
      // Arrival is stamped once the body is in, a few ms after the try's timer started: allow for it.
      for (const gap of gaps(arrivals)) expect(gap).to.be.within(60, 1000);
      await until(() => mock.openSockets() <= 1); // the two hung connections are closed; one kept alive
    });

    it('answers 408 once every try timed out', async () => {
      mock.next({ hang: true }, { hang: true });
      const { result: reply, ms } = await timed(() => chat({ ...target(), request_timeout: 60, retry: { attempts: 1, on_status_codes: [408] } }));
      expect(reply.status).to.equal(408);
      expect(reply.json).to.deep.equal(TIMEOUT_ENVELOPE(60));
      expect(reply.headers.get('x-gw-retry-attempt-count')).to.equal('1');
      expect(ms).to.be.at.least(119);
      await until(() => mock.openSockets() === 0);
    });

    it('does not retry a time-out unless on_status_codes lists 408', async () => {
      mock.next({ hang: true });
      const reply = await chat({ ...target(), request_timeout: 60, retry: { attempts: 2 } });
      expect(reply.status).to.equal(408);
      expect(mock.requests).to.have.length(1);
    });
  });

  describe('streams: request_timeout bounds the time to the first byte', () => {
    it('times out a stream whose provider never answers (a JSON 408, not a stream)', async () => {
      mock.next({ hang: true });
      const reply = await chat({ ...target(), request_timeout: 100 }, { ...CHAT_BODY, stream: true });
      expect(reply.status).to.equal(408);
      expect(reply.headers.get('content-type')).to.include('application/json');
      expect(reply.json).to.deep.equal(TIMEOUT_ENVELOPE(100));
      await until(() => mock.openSockets() === 0);
    });

    it('times out a stream whose first byte comes too late', async () => {
      mock.next({ delayMs: 400 });
      const reply = await chat({ ...target(), request_timeout: 80 }, { ...CHAT_BODY, stream: true });
      expect(reply.status).to.equal(408);
    });

    it('never cuts a stream that started in time, however slow its later chunks', async () => {
      const slow = await startMockOpenAI({ streamChunkDelayMs: 60 });
      try {
        const client = new OpenAI({
          apiKey: 'sk-x', baseURL: `${gw.url}/v1`, maxRetries: 0,
          defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify({ ...target(slow), request_timeout: 100 }) },
        });
        const { result: text, ms } = await timed(async () => {
          const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'a slow stream' }] });
          let out = '';
          for await (const chunk of stream) out += chunk.choices[0]?.delta?.content ?? '';
          return out;
        });
        expect(text).to.equal('echo: a slow stream');
        expect(ms).to.be.above(200); // well past the 100 ms time-out
      } finally {
        await slow.close();
      }
    });
  });

  it("cancels the upstream call when the client goes away first (the client's abort, not a time-out)", async () => {
    mock.next({ hang: true });
    const client = new AbortController();
    const pending = fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST', headers: configHeaders({ ...target(), request_timeout: 5000 }), body: JSON.stringify(CHAT_BODY), signal: client.signal,
    }).catch((e: Error) => e);
    await until(() => mock.requests.length === 1);
    client.abort();
    expect(await pending).to.be.instanceOf(Error);
    await until(() => mock.openSockets() === 0, 1000);
  });

  describe('with fallback', () => {
    let fgw: TestGateway;
    let backup: MockOpenAI;

    before(async () => {
      fgw = await startGateway({ plugins: [RequestTimeoutPlugin, FallbackStrategy] });
      backup = await startMockOpenAI();
    });
    after(async () => {
      await fgw?.stop();
      await backup?.close();
    });

    it('falls back to the next target when one times out', async () => {
      mock.next({ hang: true });
      const config = {
        strategy: { mode: 'fallback', on_status_codes: [408] },
        request_timeout: 100,
        targets: [target(mock), target(backup)],
      };
      const reply = await postJson(fgw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(config));
      expect(reply.status).to.equal(200);
      expect(reply.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[1]');
      expect(mock.requests).to.have.length(1);
      expect(backup.requests).to.have.length(1);
      await until(() => mock.openSockets() === 0);
    });
  });
});
