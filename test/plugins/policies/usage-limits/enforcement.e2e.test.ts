/**
 * policy.usage-limits end to end: budgets on tokens and cost, refused once spent with a 429 naming
 * the limit, resets at UTC midnight / Monday / the 1st (fake clock: Date only), the pricing table
 * and the integration's multiplier, alerts and their reset, per-value reset.
 */
import { expect } from 'chai';
import OpenAI from 'openai';
import sinon from 'sinon';
import type { PluginApi } from '../../../../core/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, TEST_API_KEY, type JsonReply, type TestGateway } from '../../../helpers/gateway.js';
import { FailingStatePlugin } from '../../../fixtures/failing-state.js';
import {
  api, BASE, chat, createUsageLimit, leaf, settle, startLoggedGateway, startUsageGateway, statusesOf, usageOf, type Caller,
} from './harness.js';
import { IntegrationsService, type IntegrationInfo } from '../../../../plugins/admin/integrations/contract.js';
import { PricingService } from '../../../../plugins/policies/usage-limits/contract.js';

const T0 = Date.parse('2025-01-08T10:20:30.000Z'); // a Wednesday
const k1: Caller = { keyId: 'k1' };
const k2: Caller = { keyId: 'k2' };

function budget(extra: Record<string, unknown>): Record<string, unknown> {
  return { conditions: [{ key: 'endpoint_type', value: '*' }], group_by: [{ key: 'api_key' }], type: 'tokens', credit_limit: 100, ...extra };
}

const tokensOf = (reply: JsonReply) => reply.json.usage.prompt_tokens + reply.json.usage.completion_tokens;

describe('policy.usage-limits: enforcement (end to end)', () => {
  let mock: MockOpenAI;
  let gw: TestGateway;
  let clock: sinon.SinonFakeTimers;
  /** prompt + completion tokens of one CHAT_BODY answer. */
  let T: number;

  const call = async (caller: Caller = k1, extra: { body?: Record<string, unknown> } = {}) => {
    const reply = await chat(gw, mock, { caller, body: extra.body });
    await settle();
    return reply;
  };

  before(async () => {
    mock = await startMockOpenAI();
    const probe = await startUsageGateway();
    T = tokensOf(await chat(probe, mock));
    await probe.stop();
  });
  after(async () => {
    await mock?.close();
  });
  beforeEach(async () => {
    clock = sinon.useFakeTimers({ now: T0, toFake: ['Date'] });
    gw = await startUsageGateway();
  });
  afterEach(async () => {
    clock.restore();
    await gw?.stop();
  });

  it('refuses a group once its tokens are spent, with a 429 naming the limit; other groups go on', async () => {
    const id = await createUsageLimit(gw, budget({ name: 'tokens per key', credit_limit: 2 * T - 1, periodic_reset: 'monthly' }));
    expect(statusesOf([await call(), await call()])).to.deep.equal([200, 200]);
    expect(await usageOf(gw, id, 'k1')).to.equal(2 * T);
    const refused = await call();
    expect(refused.status).to.equal(429);
    expect(refused.json.error).to.deep.include({
      type: 'rate_limit_error', code: 'rate_limited',
      message: `usage limit exhausted: policy "tokens per key" (${id}) has used ${2 * T} of ${2 * T - 1} tokens; usage resets at 2025-02-01T00:00:00.000Z`,
    });
    expect(refused.headers.get('retry-after')).to.equal(String(Math.ceil((Date.parse('2025-02-01T00:00:00Z') - T0) / 1000)));
    expect(mock.requests.length).to.equal(3); // the probe's and these two: the refusal reached no provider
    expect((await call(k2)).status).to.equal(200);
  });

  it('resets at UTC midnight with periodic_reset_days: 1', async () => {
    const id = await createUsageLimit(gw, budget({ credit_limit: T, periodic_reset_days: 1 }));
    expect((await call()).status).to.equal(200);
    const refused = await call();
    expect(refused.status).to.equal(429);
    expect(refused.headers.get('retry-after')).to.equal(String((Date.parse('2025-01-09T00:00:00Z') - T0) / 1000));
    expect(refused.json.error.message).to.match(/usage resets at 2025-01-09T00:00:00.000Z$/);

    clock.setSystemTime(Date.parse('2025-01-09T00:00:00Z') - 1);
    const last = await call();
    expect(last.status).to.equal(429);
    expect(last.headers.get('retry-after')).to.equal('1');

    clock.setSystemTime(Date.parse('2025-01-09T00:00:00Z'));
    expect((await call()).status).to.equal(200);
    const view = (await api(gw, 'GET', `${BASE}/${id}`)).json;
    expect(view).to.deep.include({ last_reset_at: '2025-01-09T00:00:00.000Z', next_usage_reset_at: '2025-01-10T00:00:00.000Z', periodic_reset_days: 1 });
    expect(await usageOf(gw, id, 'k1')).to.equal(T);
  });

  it('resets on Monday (weekly) and on the 1st (monthly); a cumulative limit never does', async () => {
    await createUsageLimit(gw, budget({ credit_limit: T, periodic_reset: 'weekly', conditions: [{ key: 'api_key', value: 'k1' }] }));
    await createUsageLimit(gw, budget({ credit_limit: T, periodic_reset: 'monthly', conditions: [{ key: 'api_key', value: 'k2' }] }));
    const k3: Caller = { keyId: 'k3' };
    await createUsageLimit(gw, budget({ credit_limit: T, conditions: [{ key: 'api_key', value: 'k3' }] }));
    expect(statusesOf([await call(k1), await call(k1), await call(k2), await call(k2), await call(k3), await call(k3)]))
      .to.deep.equal([200, 429, 200, 429, 200, 429]);
    const cumulative = await call(k3);
    expect(cumulative.headers.get('retry-after')).to.equal('3600');
    expect(cumulative.json.error.message).to.match(/the limit does not reset$/);

    clock.setSystemTime(Date.parse('2025-01-13T00:00:00Z'));
    expect(statusesOf([await call(k1), await call(k2), await call(k3)])).to.deep.equal([200, 429, 429]);
    clock.setSystemTime(Date.parse('2025-02-01T00:00:00Z'));
    expect(statusesOf([await call(k2), await call(k3)])).to.deep.equal([200, 429]);
  });

  it('costs answers from the price table (USD); unknown models cost 0', async () => {
    const id = await createUsageLimit(gw, budget({ type: 'cost', credit_limit: 10 }));
    const reply = await call(k1, { body: { ...CHAT_BODY, model: 'gpt-4o-mini-2024-07-18' } });
    const { prompt_tokens: p, completion_tokens: c } = reply.json.usage;
    expect(await usageOf(gw, id, 'k1')).to.be.closeTo((p * 0.15 + c * 0.6) / 1e6, 1e-12);
    await call(k2, { body: { ...CHAT_BODY, model: 'my-own-model' } });
    expect(await usageOf(gw, id, 'k2')).to.equal(0);
  });

  it('a cost budget of 0 refuses at once; a tiny one after its first answer', async () => {
    await createUsageLimit(gw, budget({ type: 'cost', credit_limit: 0, conditions: [{ key: 'api_key', value: 'k1' }] }));
    await createUsageLimit(gw, budget({ type: 'cost', credit_limit: 1e-9, conditions: [{ key: 'api_key', value: 'k2' }] }));
    expect((await call(k1)).status).to.equal(429);
    expect(statusesOf([await call(k2), await call(k2)])).to.deep.equal([200, 429]);
  });

  it('counts streams: the usage chunk when asked for, as the OpenAI SDK does', async () => {
    const id = await createUsageLimit(gw, budget({ credit_limit: 10_000 }));
    const client = new OpenAI({
      apiKey: 'sk-x', baseURL: `${gw.url}/v1`, maxRetries: 0,
      defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(leaf(mock)), 'x-test-principal': JSON.stringify(k1) },
    });
    const stream = await client.chat.completions.create({ ...CHAT_BODY, messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    let total = 0;
    for await (const chunk of stream) if (chunk.usage) total = chunk.usage.total_tokens;
    await settle();
    expect(await usageOf(gw, id, 'k1')).to.equal(total);
  });

  it('reset_usage_for_value zeroes one group\'s usage and records the reset', async () => {
    const id = await createUsageLimit(gw, budget({ credit_limit: T, periodic_reset: 'monthly' }));
    expect(statusesOf([await call(k1), await call(k1), await call(k2)])).to.deep.equal([200, 429, 200]);
    clock.tick(5000);
    const reset = await api(gw, 'PUT', `${BASE}/${id}`, { reset_usage_for_value: 'k1' });
    expect(reset.status).to.equal(200);
    expect(reset.json.last_reset_at).to.equal(new Date(T0 + 5000).toISOString());
    expect(await usageOf(gw, id, 'k1')).to.equal(0);
    expect(await usageOf(gw, id, 'k2')).to.equal(T);
    expect(statusesOf([await call(k1), await call(k2)])).to.deep.equal([200, 429]);
  });

  it('archiving a policy lifts it; raising its limit frees the difference', async () => {
    const id = await createUsageLimit(gw, budget({ credit_limit: T }));
    expect(statusesOf([await call(), await call()])).to.deep.equal([200, 429]);
    await api(gw, 'PUT', `${BASE}/${id}`, { credit_limit: 2 * T });
    expect(statusesOf([await call(), await call()])).to.deep.equal([200, 429]);
    await api(gw, 'DELETE', `${BASE}/${id}`);
    expect((await call()).status).to.equal(200);
  });

  it('provides the price table for the request logs as PricingService', () => {
    const pricing = gw.gateway.runtime.services.get(PricingService);
    expect(pricing.cost('openai', 'gpt-4o', { prompt_tokens: 1_000_000, completion_tokens: 0 })).to.be.closeTo(2.5, 1e-12);
  });
});

/** The integrations service as the integrations plugin registers it (only what usage limits use). */
function fakeIntegrations(multipliers: Record<string, number>) {
  const service = {
    pricingMultiplier: sinon.spy((_slug: string, tokenClass: string) => multipliers[tokenClass] ?? 1),
    forTarget: sinon.spy(() => ({ id: 'integration-1', slug: 'acme' }) as IntegrationInfo),
    bySlug: () => undefined,
    visibleTo: () => [],
  };
  class FakeIntegrationsPlugin {
    static readonly manifest = { id: 'test.integrations', provides: [IntegrationsService] };
    apply(api: PluginApi): void {
      api.services.provide(IntegrationsService, service);
    }
  }
  return { service, plugin: FakeIntegrationsPlugin };
}

describe('policy.usage-limits: the integration\'s pricing multiplier', () => {
  let mock: MockOpenAI;
  let gw: TestGateway;

  before(async () => {
    mock = await startMockOpenAI();
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });

  it('scales input and output prices by the serving integration\'s multipliers', async () => {
    const { service, plugin } = fakeIntegrations({ input: 2, output: 3 });
    gw = await startUsageGateway({ plugins: [plugin] });
    const id = await createUsageLimit(gw, budget({ type: 'cost', credit_limit: 10 }));
    const reply = await chat(gw, mock, { caller: k1, body: { ...CHAT_BODY, model: 'gpt-4o' } });
    await settle();
    const { prompt_tokens: p, completion_tokens: c } = reply.json.usage;
    expect(await usageOf(gw, id, 'k1')).to.be.closeTo((p * 2.5 * 2 + c * 10 * 3) / 1e6, 1e-12);
    expect(service.forTarget.calledOnce).to.equal(true);
    expect(service.pricingMultiplier.args.map((a) => a.slice(0, 2))).to.deep.equal([['integration-1', 'input'], ['integration-1', 'output']]);
  });
});

describe('policy.usage-limits: alerts', () => {
  let mock: MockOpenAI;
  let gw: TestGateway;
  const lines: string[] = [];
  let T: number;

  const call = async () => {
    const reply = await chat(gw, mock, { caller: k1 });
    await settle();
    return reply;
  };
  const alerts = async (id: string) => (await api(gw, 'GET', `${BASE}/${id}/alerts`)).json;
  const logged = () => lines.map((l) => JSON.parse(l)).filter((l) => typeof l.msg === 'string' && l.msg.startsWith('usage limit'));

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startLoggedGateway(lines);
    T = tokensOf(await chat(gw, mock));
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });

  it('raises each alert once (threshold, then exhausted), records and logs it', async () => {
    const id = await createUsageLimit(gw, budget({
      name: 'alerting', credit_limit: 2 * T, alert_threshold: T - 1, periodic_reset: 'monthly', conditions: [{ key: 'api_key', value: 'k1' }],
    }));
    expect(statusesOf([await call(), await call(), await call()])).to.deep.equal([200, 200, 429]);
    const list = await alerts(id);
    expect(list.total_count).to.equal(2);
    expect(list.data.map((a: { kind: string; threshold: number; usage: number; status: string; value_key: string }) => [a.kind, a.threshold, a.usage, a.status, a.value_key]))
      .to.deep.equal([['threshold', T - 1, T, 'active', 'k1'], ['exhausted', 2 * T, 2 * T, 'active', 'k1']]);
    expect(list.data[0].period_start).to.match(/^\d{4}-\d{2}-01T00:00:00.000Z$/);
    const lines = logged().filter((l) => l.policyId === id);
    expect(lines.map((l) => [l.level, l.kind, l.msg])).to.deep.equal([
      [40, 'threshold', `usage limit "alerting" (${id}): alert threshold reached`],
      [40, 'exhausted', `usage limit "alerting" (${id}): limit exhausted`],
    ]);
  });

  it('raising the limit resets its alerts, which then fire again; lowering the threshold does not', async () => {
    const id = await createUsageLimit(gw, budget({ credit_limit: 2 * T, alert_threshold: T - 1, conditions: [{ key: 'metadata.t', value: '*' }] }));
    const tagged = async () => {
      const r = await chat(gw, mock, { caller: { keyId: 'k-raise' }, metadata: { t: 'raise' } });
      await settle();
      return r.status;
    };
    expect([await tagged(), await tagged()]).to.deep.equal([200, 200]);
    expect((await alerts(id)).data.map((a: { status: string }) => a.status)).to.deep.equal(['active', 'active']);

    await api(gw, 'PUT', `${BASE}/${id}`, { alert_threshold: T - 2 });
    expect((await alerts(id)).data.map((a: { status: string }) => a.status), 'lowered: kept').to.deep.equal(['active', 'active']);

    await api(gw, 'PUT', `${BASE}/${id}`, { credit_limit: 4 * T });
    const reset = (await alerts(id)).data;
    expect(reset.map((a: { status: string }) => a.status)).to.deep.equal(['reset', 'reset']);
    expect(reset[0].reset_at).to.be.a('string');

    expect([await tagged(), await tagged()]).to.deep.equal([200, 200]);
    const after = (await alerts(id)).data.map((a: { kind: string; status: string }) => `${a.kind}:${a.status}`);
    expect(after).to.deep.equal(['threshold:reset', 'exhausted:reset', 'threshold:active', 'exhausted:active']);
  });

  it('raising the threshold resets the alerts too', async () => {
    const id = await createUsageLimit(gw, budget({ credit_limit: 10 * T, alert_threshold: 1, conditions: [{ key: 'metadata.t', value: 'threshold' }] }));
    await chat(gw, mock, { caller: { keyId: 'k-threshold' }, metadata: { t: 'threshold' } });
    await settle();
    expect((await alerts(id)).data.map((a: { status: string }) => a.status)).to.deep.equal(['active']);
    await api(gw, 'PUT', `${BASE}/${id}`, { alert_threshold: 5 * T });
    expect((await alerts(id)).data.map((a: { status: string }) => a.status)).to.deep.equal(['reset']);
  });
});

describe('policy.usage-limits: a failing state store', () => {
  let mock: MockOpenAI;
  let gw: TestGateway | undefined;

  before(async () => {
    mock = await startMockOpenAI();
  });
  after(async () => {
    await mock?.close();
  });
  afterEach(async () => {
    await gw?.stop();
    gw = undefined;
  });

  it('lets requests through by default, answers 503 with failOpen: false', async () => {
    gw = await startUsageGateway({ plugins: [FailingStatePlugin] });
    await createUsageLimit(gw, budget({ credit_limit: 1 }));
    expect((await chat(gw, mock, { caller: k1 })).status).to.equal(200);
    await gw.stop();
    gw = await startUsageGateway({ plugins: [FailingStatePlugin], usageLimits: { failOpen: false } });
    await createUsageLimit(gw, budget({ credit_limit: 1 }));
    const reply = await chat(gw, mock, { caller: k1 });
    expect(reply.status).to.equal(503);
    expect(reply.json.error.message).to.equal('usage-limit counters are unavailable');
  });
});
