import { expect } from 'chai';
import type { Runtime } from '../../../core/index.js';
import ModerationGuardrail from '../../../guardrails/moderation/index.js';
import type { ModerationParams } from '../../../guardrails/moderation/params.js';
import OpenAIProviderPlugin from '../../../providers/openai/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../fixtures/mock-openai.js';
import { checkFrom, bootChecks, context, input, output, run, validateParams, type TestableCheck } from '../helpers.js';

describe('guardrail default.moderation (against the mock OpenAI moderations endpoint)', () => {
  let check: TestableCheck<ModerationParams>;
  let runtime: Runtime;
  let mock: MockOpenAI;
  before(async () => {
    runtime = await bootChecks(ModerationGuardrail, { with: [OpenAIProviderPlugin] });
    check = checkFrom(runtime, 'default.moderation');
    mock = await startMockOpenAI();
  });
  afterEach(() => mock.reset());
  after(async () => {
    await mock.close();
    await runtime.close();
  });

  const params = (extra: Record<string, unknown> = {}) => ({ provider: 'openai', api_key: 'sk-mod', custom_host: `${mock.url}/v1`, ...extra });

  describe('params', () => {
    it('accepts a provider with a moderation endpoint; thresholds in [0, 1]', () => {
      expect(validateParams(check, params({ categories: ['violence'], thresholds: { violence: 0.5 } })).ok).to.equal(true);
      expect(validateParams(check, params({ thresholds: { violence: 2 } })).issues[0]).to.deep.equal({ path: 'thresholds.violence', rule: 'must be <= 1' });
    });
    it('rejects an unknown provider at config time', () => {
      const parsed = validateParams(check, { provider: 'nope' });
      expect(parsed.issues[0]!.path).to.equal('provider');
      expect(parsed.issues[0]!.rule).to.match(/^unknown provider "nope"/);
    });
  });

  it('passes harmless text, calling /v1/moderations with the key', async () => {
    const result = await run(check, params(), input('hello there'));
    expect(result.verdict).to.equal(true);
    const sent = mock.requests[0]!;
    expect(sent.path).to.equal('/v1/moderations');
    expect(sent.headers['authorization']).to.equal('Bearer sk-mod');
    expect(sent.body).to.deep.equal({ input: 'hello there' });
  });

  it('fails flagged text (violence for "kill"), naming the category', async () => {
    const result = await run(check, params({ model: 'omni-moderation-latest' }), output('I will kill the process'));
    expect(result.verdict).to.equal(false);
    expect(result.data).to.deep.include({ flagged: true, failingCategories: ['violence'], explanation: 'flagged: violence' });
    expect(result.data).not.to.have.property('provider');
    expect(mock.requests[0]!.body.model).to.equal('omni-moderation-latest');
  });

  it('only the selected categories count; thresholds override the flag', async () => {
    expect((await run(check, params({ categories: ['hate'] }), input('kill it'))).verdict).to.equal(true);
    expect((await run(check, params({ thresholds: { violence: 0.95 } }), input('kill it'))).verdict).to.equal(true);
    expect((await run(check, params({ thresholds: { harassment: 0.00001 } }), input('fine'))).verdict).to.equal(false);
  });

  it("takes the route config's key for the same provider when the params give none", async () => {
    const ctx = context({}, { config: { provider: 'openai', api_key: 'sk-route', custom_host: `${mock.url}/v1` } });
    expect((await run(check, { provider: 'openai' }, input('hi'), ctx)).verdict).to.equal(true);
    expect(mock.requests[0]!.headers['authorization']).to.equal('Bearer sk-route');
  });

  it('empty text passes without a call', async () => {
    expect(await run(check, params(), input(''))).to.deep.equal({ verdict: true, data: null });
    expect(mock.requests.length).to.equal(0);
  });

  it('throws when the provider fails, so the runner records an errored verdict', async () => {
    mock.next({ status: 503 });
    let error: Error | undefined;
    await run(check, params(), input('hi')).catch((e: Error) => (error = e));
    expect(error?.message).to.equal('moderation: provider openai answered HTTP 503');
    mock.next({ hang: true });
    await run(check, params({ timeout: 50 }), input('hi')).catch((e: Error) => (error = e));
    expect(error?.message).to.equal('moderation: no answer within 50 ms');
  });
});
