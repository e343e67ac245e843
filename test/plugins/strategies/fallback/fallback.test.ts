/** strategy.fallback end to end: a real gateway in front of several mock OpenAI providers. */
import { expect } from 'chai';
import { APIError } from 'openai';
import { JsonPayload, Stage, type Outcome, type Plugin, type PluginApi } from '../../../../core/index.js';
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import { startGateway, type TestGateway } from '../../../helpers/gateway.js';
import { closeAll, counts, leaf, sdkClient, send, sseData, startMocks, STRATEGY_PLUGINS, STREAM_BODY } from './harness.js';

/** Stands in for the output-guardrail runner: answers `status` for the targets whose name is in `names`. */
function guardOutputPlugin(status: number, names: string[]) {
  return class FakeGuardOutput implements Plugin {
    static readonly manifest = { id: `test.guard-output-${status}`, description: 'fake output guardrail' };
    apply(api: PluginApi): void {
      api.hooks.guardOutput.tap({ name: api.id, stage: Stage.GUARDRAILS }, (outcome, attempt): Outcome => {
        if (!names.includes(attempt.target.name ?? '')) return outcome;
        const envelope = { error: { message: 'output guardrail failed', type: 'guardrail_error', param: null, code: 'guardrail_failed' }, provider: 'gw', hook_results: { after_request_hooks: [] } };
        return { ...outcome, status, response: { status, headers: { 'content-type': 'application/json' }, json: JsonPayload.of(status === 246 ? { ...(outcome.response?.json?.value as object), hook_results: {} } : envelope) } };
      });
    }
  };
}

describe('strategy.fallback (end to end)', () => {
  let gw: TestGateway;
  let mocks: MockOpenAI[];
  const fallback = (targets: unknown[], strategy: Record<string, unknown> = {}) => ({ strategy: { mode: 'fallback', ...strategy }, targets });

  before(async () => {
    gw = await startGateway({ plugins: [...STRATEGY_PLUGINS, guardOutputPlugin(446, ['denied']), guardOutputPlugin(246, ['warned'])] });
    mocks = await startMocks(3);
  });
  afterEach(() => mocks.forEach((m) => m.reset()));
  after(async () => {
    await closeAll(mocks);
    await gw.stop();
  });

  it('serves from the first target when it succeeds, and calls no other', async () => {
    const res = await send(gw, fallback([leaf(mocks[0]!), leaf(mocks[1]!)]));
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[0]');
    expect(counts(mocks)).to.deep.equal([1, 0, 0]);
  });

  it('falls back on a 5xx', async () => {
    mocks[0]!.next({ status: 503 });
    const res = await send(gw, fallback([leaf(mocks[0]!), leaf(mocks[1]!)]));
    expect(res.status).to.equal(200);
    expect(res.json.object).to.equal('chat.completion');
    expect(res.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[1]');
    expect(res.headers.get('x-gw-retry-attempt-count')).to.equal('0');
    expect(counts(mocks)).to.deep.equal([1, 1, 0]);
  });

  it('falls back on a network reset', async () => {
    mocks[0]!.next({ reset: true });
    const res = await send(gw, fallback([leaf(mocks[0]!), leaf(mocks[1]!)]));
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[1]');
  });

  it("falls back on the client's own 4xx mistake when no on_status_codes is given", async () => {
    mocks[0]!.next({ status: 400 });
    const res = await send(gw, fallback([leaf(mocks[0]!), leaf(mocks[1]!)]));
    expect(res.status).to.equal(200);
    expect(counts(mocks)).to.deep.equal([1, 1, 0]);
  });

  describe('on_status_codes', () => {
    it('falls back on a listed status', async () => {
      mocks[0]!.next({ status: 429 });
      const res = await send(gw, fallback([leaf(mocks[0]!), leaf(mocks[1]!)], { on_status_codes: [429] }));
      expect(res.status).to.equal(200);
      expect(res.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[1]');
    });

    it("does not fall back on a status outside the list: the provider's error is served", async () => {
      mocks[0]!.next({ status: 503 });
      const res = await send(gw, fallback([leaf(mocks[0]!), leaf(mocks[1]!)], { on_status_codes: [429] }));
      expect(res.status).to.equal(503);
      expect(res.json.provider).to.equal('openai');
      expect(res.json.error.message).to.be.a('string').and.not.empty;
      expect(res.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[0]');
      expect(counts(mocks)).to.deep.equal([1, 0, 0]);
    });

    it('does not fall back on a network error (502) unless 502 is listed', async () => {
      mocks[0]!.next({ reset: true });
      const res = await send(gw, fallback([leaf(mocks[0]!), leaf(mocks[1]!)], { on_status_codes: [429] }));
      expect(res.status).to.equal(502);
      expect(res.json.error.code).to.equal('bad_gateway');
      mocks[0]!.next({ reset: true });
      const listed = await send(gw, fallback([leaf(mocks[0]!), leaf(mocks[1]!)], { on_status_codes: [502] }));
      expect(listed.status).to.equal(200);
    });

    it("takes the failing target's own list over the strategy's", async () => {
      const config = fallback([leaf(mocks[0]!, { on_status_codes: [429] }), leaf(mocks[1]!)], { on_status_codes: [503] });
      mocks[0]!.next({ status: 503 });
      const notListed = await send(gw, config);
      expect(notListed.status).to.equal(503);
      expect(counts(mocks)).to.deep.equal([1, 0, 0]);
      mocks[0]!.next({ status: 429 });
      const listed = await send(gw, config);
      expect(listed.status).to.equal(200);
      expect(counts(mocks)).to.deep.equal([2, 1, 0]);
    });

    it("uses the strategy's list for a target without its own", async () => {
      const config = fallback([leaf(mocks[0]!), leaf(mocks[1]!, { on_status_codes: [500] }), leaf(mocks[2]!)], { on_status_codes: [503] });
      mocks[0]!.next({ status: 503 });
      mocks[1]!.next({ status: 500 });
      const res = await send(gw, config);
      expect(res.status).to.equal(200);
      expect(res.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[2]');
    });
  });

  describe('when every target fails', () => {
    it("serves the last failure with the provider's status and envelope", async () => {
      mocks[0]!.next({ status: 500 });
      mocks[1]!.next({ reset: true });
      mocks[2]!.next({ status: 503, body: { error: { message: 'overloaded, try later', type: 'server_error', param: null, code: 'overloaded' } } });
      const res = await send(gw, fallback([leaf(mocks[0]!), leaf(mocks[1]!), leaf(mocks[2]!)]));
      expect(res.status).to.equal(503);
      expect(res.json).to.deep.equal({ error: { message: 'overloaded, try later', type: 'server_error', param: null, code: 'overloaded' }, provider: 'openai' });
      expect(res.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[2]');
      expect(res.headers.get('x-gw-provider')).to.equal('openai');
      expect(counts(mocks)).to.deep.equal([1, 1, 1]);
    });

    it('serves a 502 gateway envelope when the last one was unreachable', async () => {
      mocks[0]!.next({ status: 500 });
      mocks[1]!.next({ reset: true });
      const res = await send(gw, fallback([leaf(mocks[0]!), leaf(mocks[1]!)]));
      expect(res.status).to.equal(502);
      expect(res.json.error.code).to.equal('bad_gateway');
      expect(res.json.error.message).to.match(/provider openai/);
    });

    it('surfaces as an APIError with that status in the OpenAI SDK', async () => {
      mocks[0]!.next({ status: 500 });
      mocks[1]!.next({ status: 503 });
      const client = await sdkClient(gw, fallback([leaf(mocks[0]!), leaf(mocks[1]!)]));
      const error = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).then(() => undefined, (e: unknown) => e);
      expect(error).to.be.instanceOf(APIError);
      expect((error as APIError).status).to.equal(503);
      expect((error as APIError).headers?.get('x-gw-last-used-option-index')).to.equal('config.targets[1]');
    });
  });

  describe('guardrail statuses', () => {
    it('treats a denied output guardrail (446) as a trigger without on_status_codes', async () => {
      const res = await send(gw, fallback([leaf(mocks[0]!, { name: 'denied' }), leaf(mocks[1]!)]));
      expect(res.status).to.equal(200);
      expect(res.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[1]');
      expect(counts(mocks)).to.deep.equal([1, 1, 0]);
    });

    it('falls back on 446 when listed, and serves the 446 when not', async () => {
      const listed = await send(gw, fallback([leaf(mocks[0]!, { name: 'denied' }), leaf(mocks[1]!)], { on_status_codes: [446] }));
      expect(listed.status).to.equal(200);
      const unlisted = await send(gw, fallback([leaf(mocks[0]!, { name: 'denied' }), leaf(mocks[1]!)], { on_status_codes: [503] }));
      expect(unlisted.status).to.equal(446);
      expect(unlisted.json.hook_results).to.be.an('object');
      expect(unlisted.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[0]');
    });

    it('serves 246 (guardrail failed without deny) as a success', async () => {
      const res = await send(gw, fallback([leaf(mocks[0]!, { name: 'warned' }), leaf(mocks[1]!)]));
      expect(res.status).to.equal(246);
      expect(res.json.object).to.equal('chat.completion');
      expect(counts(mocks)).to.deep.equal([1, 0, 0]);
    });
  });

  describe('streams', () => {
    it('falls back when a stream fails before its first byte', async () => {
      mocks[0]!.next({ streamCutAfter: 0 });
      const res = await send(gw, fallback([leaf(mocks[0]!), leaf(mocks[1]!)]), { body: STREAM_BODY });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
      expect(res.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[1]');
      const events = sseData(res.text);
      expect(events.at(-1)).to.equal('[DONE]');
      expect(events.some((e) => e.includes('"error"'))).to.equal(false);
      expect(counts(mocks)).to.deep.equal([1, 1, 0]);
    });

    it('falls back when a stream request is reset before any answer', async () => {
      mocks[0]!.next({ reset: true });
      const res = await send(gw, fallback([leaf(mocks[0]!), leaf(mocks[1]!)]), { body: STREAM_BODY });
      expect(res.status).to.equal(200);
      expect(sseData(res.text).at(-1)).to.equal('[DONE]');
      expect(res.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[1]');
    });

    it('does not fall back once the first chunk went out: one error event, no [DONE]', async () => {
      mocks[0]!.next({ streamCutAfter: 1 });
      const res = await send(gw, fallback([leaf(mocks[0]!), leaf(mocks[1]!)]), { body: STREAM_BODY });
      expect(res.status).to.equal(200);
      expect(res.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[0]');
      const events = sseData(res.text);
      expect(JSON.parse(events[0]!).object).to.equal('chat.completion.chunk');
      const errors = events.filter((e) => e.startsWith('{"error"'));
      expect(errors).to.have.length(1);
      expect(events.at(-1)).to.equal(errors[0]);
      expect(events).to.not.include('[DONE]');
      expect(counts(mocks)).to.deep.equal([1, 0, 0]);
    });

    it('the OpenAI SDK reads the chunks, then throws on the error event', async () => {
      mocks[0]!.next({ streamCutAfter: 2 });
      const client = await sdkClient(gw, fallback([leaf(mocks[0]!), leaf(mocks[1]!)]));
      const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true });
      let chunks = 0;
      const error = await (async () => {
        for await (const _chunk of stream) chunks++;
      })().then(() => undefined, (e: unknown) => e);
      expect(chunks).to.equal(2);
      expect(error).to.be.instanceOf(APIError);
      expect(counts(mocks)).to.deep.equal([1, 0, 0]);
    });
  });
});
