/**
 * policy.circuit-breaker end to end: a real gateway (default preset + the breaker) in front of real
 * mock OpenAI servers. Cooldowns (>= 30 s) pass instantly with a fake Date (only Date is faked, so
 * sockets and timers stay real).
 */
import { expect } from 'chai';
import OpenAI, { APIError } from 'openai';
import sinon from 'sinon';
import FallbackStrategy from '../../../../plugins/strategies/fallback/index.js';
import CircuitBreakerPlugin, { MAX_COOLDOWN_MS } from '../../../../plugins/policies/circuit-breaker/index.js';
import { CHAT_BODY, configHeaders, postJson, startGateway, type JsonReply, type TestGateway } from '../../../helpers/gateway.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';

const COOLDOWN = 30_000;
type Config = Record<string, unknown>;

function leaf(mock: MockOpenAI, extra: Config = {}): Config {
  return { provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`, ...extra };
}

function cb(failure_threshold: number, extra: Config = {}): Config {
  return { failure_threshold, cooldown_interval: COOLDOWN, ...extra };
}

describe('policy.circuit-breaker (end to end)', () => {
  let mockA: MockOpenAI;
  let mockB: MockOpenAI;
  let gw: TestGateway;
  let clock: sinon.SinonFakeTimers | undefined;

  const chat = (config: Config): Promise<JsonReply> => postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(config));
  const statuses = async (config: Config, n: number): Promise<number[]> => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await chat(config)).status);
    return out;
  };
  const fakeDate = () => (clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] }));
  const expectOpen = (reply: JsonReply, path: string) => {
    expect(reply.status).to.equal(503);
    expect(reply.json.error).to.deep.include({ code: 'circuit_open', type: 'api_error', message: `circuit open for target ${path}` });
    expect(reply.json.provider).to.equal('gw');
    expect(Number(reply.headers.get('retry-after'))).to.be.within(1, COOLDOWN / 1000);
    expect(reply.headers.get('x-gw-last-used-option-index')).to.equal(path);
  };

  before(async () => {
    [mockA, mockB] = await Promise.all([startMockOpenAI(), startMockOpenAI()]);
  });

  after(async () => {
    await Promise.all([mockA?.close(), mockB?.close()]);
  });

  beforeEach(async () => {
    mockA.reset();
    mockB.reset();
    gw = await startGateway({ plugins: [CircuitBreakerPlugin, FallbackStrategy] });
  });

  afterEach(async () => {
    clock?.restore();
    clock = undefined;
    await gw?.stop();
  });

  it('opens after failure_threshold failures: the provider received exactly that many', async () => {
    const config = { cb_config: cb(3), strategy: { mode: 'single' }, targets: [leaf(mockA)] };
    mockA.next({ status: 503 }, { status: 503 }, { status: 503 });
    expect(await statuses(config, 3)).to.deep.equal([503, 503, 503]);
    expect(mockA.requests).to.have.length(3);
    expectOpen(await chat(config), 'config.targets[0]');
    expect(mockA.requests).to.have.length(3);
  });

  it('skips while open: the provider receives nothing, every client gets the 503 envelope', async () => {
    const config = leaf(mockA, { cb_config: cb(1) });
    mockA.next({ status: 502 });
    expect((await chat(config)).status).to.equal(502);
    const replies = await Promise.all(Array.from({ length: 5 }, () => chat(config)));
    for (const reply of replies) expectOpen(reply, 'config');
    expect(mockA.requests).to.have.length(1);
  });

  it('the OpenAI SDK surfaces an open circuit as an APIError 503 with code circuit_open', async () => {
    const config = leaf(mockA, { cb_config: cb(1) });
    mockA.next({ status: 503 });
    const client = new OpenAI({ apiKey: 'sk-x', baseURL: gw.url + '/v1', defaultHeaders: configHeaders(config), maxRetries: 0 });
    const call = () => client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    await call().then(() => expect.fail('the provider failed'), (e: unknown) => expect((e as APIError).status).to.equal(503));
    const error = await call().then(() => expect.fail('the circuit is open'), (e: unknown) => e as APIError);
    expect(error).to.be.instanceOf(APIError);
    expect(error.status).to.equal(503);
    expect(error.code).to.equal('circuit_open');
    expect(error.message).to.include('circuit open for target config');
    expect(mockA.requests).to.have.length(1);
  });

  it('after the cooldown lets exactly one probe through; its success closes the circuit', async () => {
    const config = leaf(mockA, { cb_config: cb(1) });
    fakeDate();
    mockA.next({ status: 503 });
    await chat(config);
    clock!.tick(COOLDOWN - 1);
    expectOpen(await chat(config), 'config');
    clock!.tick(1);

    mockA.next({ delayMs: 150 }); // the probe is slow: the others arrive while it is in flight
    const probe = chat(config);
    await waitFor(() => mockA.requests.length === 2);
    const others = await Promise.all([chat(config), chat(config), chat(config)]);
    for (const reply of others) expectOpen(reply, 'config');
    expect((await probe).status).to.equal(200);
    expect(mockA.requests).to.have.length(2);

    expect(await statuses(config, 3)).to.deep.equal([200, 200, 200]);
    expect(mockA.requests).to.have.length(5);
  });

  it('a failed probe re-opens the circuit for a whole new cooldown', async () => {
    const config = leaf(mockA, { cb_config: cb(2) });
    fakeDate();
    mockA.next({ status: 503 }, { status: 503 });
    await statuses(config, 2);
    clock!.tick(COOLDOWN + 5_000);
    mockA.next({ status: 504 });
    expect((await chat(config)).status).to.equal(504); // the probe, failing
    expect(mockA.requests).to.have.length(3);
    clock!.tick(COOLDOWN - 1);
    expectOpen(await chat(config), 'config');
    expect(mockA.requests).to.have.length(3);
    clock!.tick(1);
    expect((await chat(config)).status).to.equal(200);
    expect(mockA.requests).to.have.length(4);
  });

  it('counts network errors (connection reset) as failures', async () => {
    const config = leaf(mockA, { cb_config: cb(2, { failure_status_codes: [429] }) });
    mockA.next({ reset: true }, { reset: true });
    expect(await statuses(config, 2)).to.deep.equal([502, 502]);
    expectOpen(await chat(config), 'config');
    expect(mockA.requests).to.have.length(2);
  });

  it('by default counts statuses above 500: a 500 does not count, a 503 does', async () => {
    const config = leaf(mockA, { cb_config: cb(2) });
    mockA.next({ status: 500 }, { status: 500 }, { status: 500 });
    expect(await statuses(config, 4)).to.deep.equal([500, 500, 500, 200]);
    mockA.next({ status: 503 }, { status: 503 });
    expect(await statuses(config, 2)).to.deep.equal([503, 503]);
    expectOpen(await chat(config), 'config');
    expect(mockA.requests).to.have.length(6);
  });

  it('failure_status_codes replaces the default: listed statuses count, a 503 then does not', async () => {
    const config = leaf(mockA, { cb_config: cb(2, { failure_status_codes: [429] }) });
    mockA.next({ status: 503 }, { status: 503 }, { status: 503 });
    expect(await statuses(config, 3)).to.deep.equal([503, 503, 503]);
    mockA.next({ status: 429 }, { status: 429 });
    expect(await statuses(config, 2)).to.deep.equal([429, 429]);
    expectOpen(await chat(config), 'config');
    expect(mockA.requests).to.have.length(5);
  });

  it('children inherit cb_config from a parent node, at any depth; a child\'s own cb_config wins', async () => {
    const config = {
      cb_config: cb(1),
      strategy: { mode: 'single' },
      targets: [{ strategy: { mode: 'single' }, targets: [leaf(mockA)] }],
    };
    mockA.next({ status: 503 });
    await chat(config);
    expectOpen(await chat(config), 'config.targets[0].targets[0]');
    expect(mockA.requests).to.have.length(1);

    const own = { cb_config: cb(1), strategy: { mode: 'single' }, targets: [leaf(mockB, { cb_config: cb(3) })] };
    mockB.next({ status: 503 }, { status: 503 }, { status: 503 });
    expect(await statuses(own, 3)).to.deep.equal([503, 503, 503]);
    expectOpen(await chat(own), 'config.targets[0]');
    expect(mockB.requests).to.have.length(3);
  });

  it('keeps one circuit per target: the same provider at another path or with another model is unaffected', async () => {
    mockA.next({ status: 503 });
    await chat(leaf(mockA, { cb_config: cb(1), name: 'first' }));
    expectOpen(await chat(leaf(mockA, { cb_config: cb(1), name: 'first' })), 'config');
    expect((await chat(leaf(mockA, { cb_config: cb(1), name: 'second' }))).status).to.equal(200);
    expect((await chat(leaf(mockA, { cb_config: cb(1), name: 'first', override_params: { model: 'gpt-4o' } }))).status).to.equal(200);
    // The same target under another cb_config object (another config) shares the circuit.
    expectOpen(await chat(leaf(mockA, { cb_config: cb(5), name: 'first' })), 'config');
  });

  it('never skips a target without cb_config', async () => {
    const config = leaf(mockA);
    mockA.next(...Array.from({ length: 5 }, () => ({ status: 503 })));
    expect(await statuses(config, 6)).to.deep.equal([503, 503, 503, 503, 503, 200]);
  });

  it('rejects a cb_config out of bounds with a 400 naming the field, before any provider call', async () => {
    const cases: Array<[Config, string]> = [
      [{ failure_threshold: 0, cooldown_interval: COOLDOWN }, 'targets.0.cb_config.failure_threshold'],
      [{ failure_threshold: 1, cooldown_interval: 29_999 }, 'targets.0.cb_config.cooldown_interval'],
      [{ failure_threshold: 1, cooldown_interval: MAX_COOLDOWN_MS + 1 }, 'targets.0.cb_config.cooldown_interval'],
      [{ failure_threshold: 1, cooldown_interval: COOLDOWN, failure_status_codes: [700] }, 'targets.0.cb_config.failure_status_codes.0'],
    ];
    for (const [cbConfig, param] of cases) {
      const reply = await chat({ strategy: { mode: 'single' }, targets: [leaf(mockA, { cb_config: cbConfig })] });
      expect(reply.status, param).to.equal(400);
      expect(reply.json.error.code).to.equal('invalid_config');
      expect(reply.json.error.param).to.equal(param);
    }
    expect(mockA.requests).to.have.length(0);
  });

  describe('with a fallback strategy', () => {

    it('moves on from an open first target: the second serves and the first receives nothing', async () => {
      const config = { strategy: { mode: 'fallback' }, cb_config: cb(1), targets: [leaf(mockA), leaf(mockB)] };
      mockA.next({ status: 503 });
      const first = await chat(config);
      expect(first.status).to.equal(200);
      expect(first.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[1]');
      for (let i = 0; i < 3; i++) {
        const reply = await chat(config);
        expect(reply.status).to.equal(200);
        expect(reply.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[1]');
      }
      expect(mockA.requests).to.have.length(1);
      expect(mockB.requests).to.have.length(4);
    });

    it('answers 503 circuit_open when every target\'s circuit is open', async () => {
      const config = { strategy: { mode: 'fallback' }, cb_config: cb(1), targets: [leaf(mockA), leaf(mockB)] };
      mockA.next({ status: 503 });
      mockB.next({ status: 502 });
      const last = await chat(config);
      expect(last.status).to.equal(502); // the last provider failure, while circuits were still closed
      expect(last.json.provider).to.equal('openai');

      const reply = await chat(config);
      expect(reply.status).to.equal(503);
      expect(reply.json.error.code).to.equal('circuit_open');
      expect(mockA.requests).to.have.length(1);
      expect(mockB.requests).to.have.length(1);

      const client = new OpenAI({ apiKey: 'sk-x', baseURL: gw.url + '/v1', defaultHeaders: configHeaders(config), maxRetries: 0 });
      const error = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })
        .then(() => expect.fail('every circuit is open'), (e: unknown) => e as APIError);
      expect(error.status).to.equal(503);
      expect(error.code).to.equal('circuit_open');
    });
  });
});

/** Polls a condition on real timers (Date may be fake). */
async function waitFor(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
