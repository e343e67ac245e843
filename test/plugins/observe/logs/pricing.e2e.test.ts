/**
 * An integration's `pricing_adjustments.multiplier` in request logs and analytics (issue 20 item 6),
 * on the real plugins: integrations, the usage-limits price table, logs and analytics, against a
 * mock OpenAI provider. A ×3 integration logs 3× the list cost; analytics sums the scaled costs.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import IntegrationsPlugin from '../../../../plugins/admin/integrations/index.js';
import AnalyticsPlugin from '../../../../plugins/observe/analytics/index.js';
import RequestLogsPlugin from '../../../../plugins/observe/logs/index.js';
import UsageLimitsPlugin from '../../../../plugins/policies/usage-limits/index.js';
import SecretBoxPlugin from '../../../../plugins/security/secret-box/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { call, CHAT_BODY, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { getJson, logService } from './harness.js';

/** gpt-4o-mini's list price in the built-in table, USD per 1M tokens. */
const INPUT_PRICE = 0.15;
const OUTPUT_PRICE = 0.6;

interface LoggedCost {
  cost: number | null;
  provider: string;
  usage: { prompt_tokens: number; completion_tokens: number };
}

describe('observe.logs: an integration\'s pricing multiplier', () => {
  let mock: MockOpenAI;
  let gw: TestGateway;
  const ids: Record<string, string> = {};
  let n = 0;

  const integration = async (slug: string, extra: Record<string, unknown> = {}) => {
    const reply = await call(gw, 'POST', '/v1/integrations', { slug, provider: 'openai', key: 'sk-test', configurations: { custom_host: `${mock.url}/v1` }, ...extra });
    if (reply.status !== 200) throw new Error(`${reply.status} ${reply.text}`);
    ids[slug] = reply.json.id;
  };
  /** One chat through `@slug`; answers its log row. */
  const chatVia = async (slug: string, body: Record<string, unknown> = CHAT_BODY): Promise<LoggedCost> => {
    const trace = `pricing-${++n}`;
    const reply = await postJson(gw.url, '/v1/chat/completions', body, {
      'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, 'x-gw-trace-id': trace, 'x-gw-config': JSON.stringify({ provider: `@${slug}` }),
    });
    expect(reply.status, reply.text).to.equal(200);
    await logService(gw).flush();
    const logs = await getJson(gw.url, `/v1/logs?trace_id=${trace}`);
    expect(logs.json.total_count).to.equal(1);
    return logs.json.data[0];
  };
  const listCost = (log: LoggedCost, input = 1, output = 1) =>
    (log.usage.prompt_tokens * INPUT_PRICE * input + log.usage.completion_tokens * OUTPUT_PRICE * output) / 1e6;

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startGateway({
      plugins: [SecretBoxPlugin, IntegrationsPlugin, UsageLimitsPlugin, RequestLogsPlugin, AnalyticsPlugin],
      env: { GW_SECRET_KEY: randomBytes(32).toString('base64') },
    });
    await integration('plain');
    await integration('triple', { pricing_adjustments: { multiplier: 3 } });
    await integration('split', { pricing_adjustments: { multiplier: { input: 2, output: 0.5 } } });
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });

  it('a ×3 integration logs 3× the plain cost; per-class multipliers scale input and output apart', async () => {
    const plain = await chatVia('plain');
    expect(plain.usage.prompt_tokens).to.be.greaterThan(0);
    expect(plain.cost).to.be.closeTo(listCost(plain), 1e-12);
    const triple = await chatVia('triple');
    expect(triple.usage).to.deep.include(plain.usage);
    expect(triple.cost).to.be.closeTo(3 * plain.cost!, 1e-12);
    const split = await chatVia('split');
    expect(split.cost).to.be.closeTo(listCost(split, 2, 0.5), 1e-12);
  });

  it('analytics sum the scaled costs per integration', async () => {
    for (const slug of ['triple', 'triple', 'plain']) await chatVia(slug);
    const logs = (await getJson(gw.url, '/v1/logs?page_size=100')).json.data as LoggedCost[];
    const sumOf = (id: string) => logs.filter((l) => l.provider === id).reduce((a, l) => a + l.cost!, 0);
    const grouped = await getJson(gw.url, '/v1/analytics/groups/provider?columns=cost');
    expect(grouped.status).to.equal(200);
    const byProvider = new Map((grouped.json.data as { provider: string; cost: number; requests: number }[]).map((r) => [r.provider, r]));
    const triple = byProvider.get(ids['triple']!)!;
    const plain = byProvider.get(ids['plain']!)!;
    expect(triple.requests).to.equal(3);
    expect(plain.requests).to.equal(2);
    expect(triple.cost).to.be.closeTo(sumOf(ids['triple']!), 1e-12);
    // Every request here has the same usage: 3 triple requests cost what 9 plain ones would.
    expect(triple.cost).to.be.closeTo((9 / 2) * plain.cost, 1e-12);
  });

  it('a changed multiplier applies to the next request; an unknown model stays unpriced (null)', async () => {
    const put = await call(gw, 'PUT', '/v1/integrations/triple', { pricing_adjustments: { multiplier: 5 } });
    expect(put.status, put.text).to.equal(200);
    const five = await chatVia('triple');
    expect(five.cost).to.be.closeTo(listCost(five, 5, 5), 1e-12);
    await call(gw, 'PUT', '/v1/integrations/triple', { pricing_adjustments: { multiplier: 3 } });
    const unknown = await chatVia('triple', { ...CHAT_BODY, model: 'my-own-model' });
    expect(unknown.cost).to.equal(null);
  });

  it('a bad multiplier is refused when the integration is written, naming the field', async () => {
    const reply = await call(gw, 'PUT', '/v1/integrations/triple', { pricing_adjustments: { multiplier: -3 } });
    expect(reply.status).to.equal(400);
    expect(reply.json.error.message).to.contain('body.pricing_adjustments.multiplier');
    expect((await chatVia('triple')).cost).to.be.greaterThan(0);
  });
});
