/** policy.retry end to end: a real gateway, a real mock OpenAI provider, raw HTTP and the openai SDK. */
import { expect } from 'chai';
import OpenAI from 'openai';
import RetryPlugin from '../../../../plugins/policies/retry/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, configHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { arrivalTimes, CompletionProbe, gaps, until } from './probes.js';

describe('policy.retry end to end', () => {
  let gw: TestGateway;
  let mock: MockOpenAI;
  let arrivals: number[];

  const target = () => ({ provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1` });
  const chat = (config: unknown, body: unknown = CHAT_BODY) => postJson(gw.url, '/v1/chat/completions', body, configHeaders(config));

  before(async () => {
    // Tiny back-off so tests run fast; the waits themselves are covered with fake timers in runner.test.ts.
    gw = await startGateway({ plugins: [{ use: RetryPlugin, options: { baseDelayMs: 1, maxDelayMs: 5 } }, CompletionProbe] });
  });
  after(async () => {
    await gw.stop();
  });
  beforeEach(async () => {
    mock = await startMockOpenAI();
    arrivals = arrivalTimes(mock);
  });
  afterEach(async () => {
    await mock.close();
  });

  it('retries 503s until the provider answers, replaying the same body, and reports the count', async () => {
    mock.next({ status: 503 }, { status: 503 }, { status: 503 });
    const reply = await chat({ ...target(), retry: { attempts: 3 } });
    expect(reply.status).to.equal(200);
    expect(reply.json.object).to.equal('chat.completion');
    expect(reply.headers.get('x-gw-retry-attempt-count')).to.equal('3');
    expect(mock.requests).to.have.length(4);
    const bodies = new Set(mock.requests.map((r) => r.rawBody));
    expect(bodies.size).to.equal(1);
    expect(JSON.parse([...bodies][0]!)).to.deep.equal(CHAT_BODY);
    // Every failed answer was read to its end: the one keep-alive connection served all four tries.
    expect(mock.openSockets()).to.equal(1);
  });

  it('answers without retrying and reports 0 when the first try succeeds', async () => {
    const reply = await chat({ ...target(), retry: { attempts: 3 } });
    expect(reply.status).to.equal(200);
    expect(reply.headers.get('x-gw-retry-attempt-count')).to.equal('0');
    expect(mock.requests).to.have.length(1);
  });

  it('passes a status that is not retryable through at once, untouched', async () => {
    mock.next({ status: 400 }, { status: 200 });
    const reply = await chat({ ...target(), retry: { attempts: 3 } });
    expect(reply.status).to.equal(400);
    expect(reply.json).to.deep.equal({
      error: { message: 'Invalid request (mock).', type: 'invalid_request_error', param: null, code: null },
      provider: 'openai',
    });
    expect(reply.headers.get('x-gw-retry-attempt-count')).to.equal('0');
    expect(mock.requests).to.have.length(1);
  });

  it("returns the provider's status and envelope once the retries are spent", async () => {
    mock.next({ status: 503 }, { status: 503 }, { status: 503 }, { status: 200 });
    const reply = await chat({ ...target(), retry: { attempts: 2 } });
    expect(reply.status).to.equal(503);
    expect(reply.json.error.message).to.equal('The engine is currently overloaded, please try again later.');
    expect(reply.json.error.type).to.equal('server_error');
    expect(reply.json.provider).to.equal('openai');
    expect(reply.headers.get('x-gw-retry-attempt-count')).to.equal('2');
    expect(reply.headers.get('x-gw-provider')).to.equal('openai');
    expect(mock.requests).to.have.length(3);
  });

  it('retries only the statuses on_status_codes lists', async () => {
    mock.next({ status: 409 }, { status: 503 }, { status: 200 });
    const reply = await chat({ ...target(), retry: { attempts: 3, on_status_codes: [409] } });
    expect(reply.status).to.equal(503);
    expect(reply.headers.get('x-gw-retry-attempt-count')).to.equal('1');
    expect(mock.requests).to.have.length(2);
  });

  it('retries connection resets, even when on_status_codes does not list 502', async () => {
    mock.next({ reset: true }, { reset: true });
    const reply = await chat({ ...target(), retry: { attempts: 2, on_status_codes: [429] } });
    expect(reply.status).to.equal(200);
    expect(reply.headers.get('x-gw-retry-attempt-count')).to.equal('2');
    expect(mock.requests).to.have.length(3);
  });

  it('answers 502 after resets spend every retry', async () => {
    mock.next({ reset: true }, { reset: true });
    const reply = await chat({ ...target(), retry: { attempts: 1 } });
    expect(reply.status).to.equal(502);
    expect(reply.json.error.message).to.match(/unreachable|reset|socket/);
    expect(reply.headers.get('x-gw-retry-attempt-count')).to.equal('1');
  });

  it('retries a stream that failed before its first byte; the SDK sees one whole stream', async () => {
    mock.next({ streamCutAfter: 0 });
    const client = new OpenAI({
      apiKey: 'sk-x', baseURL: `${gw.url}/v1`, maxRetries: 0,
      defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify({ ...target(), retry: { attempts: 1 } }) },
    });
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hello' }] })
      .withResponse();
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).to.equal('echo: hello');
    expect(response.headers.get('x-gw-retry-attempt-count')).to.equal('1');
    expect(mock.requests).to.have.length(2);
  });

  it('never retries a stream that already started: it ends with an error event', async () => {
    mock.next({ streamCutAfter: 2 });
    const reply = await chat({ ...target(), retry: { attempts: 3 } }, { ...CHAT_BODY, stream: true });
    expect(reply.status).to.equal(200);
    expect(reply.text).to.include('"error"');
    expect(reply.text).to.not.include('[DONE]');
    expect(mock.requests).to.have.length(1);
  });

  it('children inherit retry from the node above them', async () => {
    mock.next({ status: 502 });
    const reply = await chat({ retry: { attempts: 1 }, strategy: { mode: 'single' }, targets: [target()] });
    expect(reply.status).to.equal(200);
    expect(reply.headers.get('x-gw-retry-attempt-count')).to.equal('1');
    expect(reply.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[0]');
  });

  it('shows the SDK the retry count on a success after retries', async () => {
    mock.next({ status: 500 }, { status: 429 });
    const client = new OpenAI({
      apiKey: 'sk-x', baseURL: `${gw.url}/v1`, maxRetries: 0,
      defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify({ ...target(), retry: { attempts: 5 } }) },
    });
    const { data, response } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(data.choices[0]!.message.content).to.equal('echo: hi');
    expect(response.headers.get('x-gw-retry-attempt-count')).to.equal('2');
  });

  describe('retry-after headers', () => {
    it('waits what retry-after-ms asks when use_retry_after_headers is on', async () => {
      mock.next({ status: 429, headers: { 'retry-after-ms': '150' } });
      const reply = await chat({ ...target(), retry: { attempts: 1, use_retry_after_headers: true } });
      expect(reply.status).to.equal(200);
      expect(gaps(arrivals)[0]).to.be.within(149, 1000);
    });

    it('does not wait for them when use_retry_after_headers is off (back-off of at most 5 ms here)', async () => {
      mock.next({ status: 429, headers: { 'retry-after-ms': '2000' } });
      const reply = await chat({ ...target(), retry: { attempts: 1 } });
      expect(reply.status).to.equal(200);
      expect(gaps(arrivals)[0]).to.be.below(500);
    });

    it('returns the 429 at once, retry-after included, when the provider asks for more than the cap', async () => {
      mock.next({ status: 429, headers: { 'retry-after': '60' } }); // 60 s > maxRetryAfterMs (30 s)
      const started = performance.now();
      const reply = await chat({ ...target(), retry: { attempts: 3, use_retry_after_headers: true } });
      expect(performance.now() - started).to.be.below(1000);
      expect(reply.status).to.equal(429);
      expect(reply.headers.get('retry-after')).to.equal('60');
      expect(reply.json.error.code).to.equal('rate_limit_exceeded');
      expect(reply.headers.get('x-gw-retry-attempt-count')).to.equal('0');
      expect(mock.requests).to.have.length(1);
    });
  });

  it('stops retrying when the client goes away during the back-off', async () => {
    mock.next({ status: 503, headers: { 'retry-after-ms': '5000' } });
    const client = new AbortController();
    const pending = fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: configHeaders({ ...target(), retry: { attempts: 2, use_retry_after_headers: true } }),
      body: JSON.stringify(CHAT_BODY),
      signal: client.signal,
    }).catch((e: Error) => e);
    await until(() => mock.requests.length === 1);
    const before = CompletionProbe.finished.length;
    await new Promise((r) => setTimeout(r, 30)); // now inside the 5 s wait
    const abortedAt = performance.now();
    client.abort();
    expect(await pending).to.be.instanceOf(Error);
    await until(() => CompletionProbe.finished.length > before);
    const finished = CompletionProbe.finished[CompletionProbe.finished.length - 1]!;
    expect(finished.status).to.equal(499);
    expect(finished.at - abortedAt).to.be.below(1000);
    expect(mock.requests).to.have.length(1);
  });
});
