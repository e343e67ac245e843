/**
 * observe.analytics: the grouped figures checked against values computed here from the same logs
 * (read back through /v1/logs), for every column and several groupings.
 */
import { expect } from 'chai';
import { definePlugin, Type } from '../../../../core/index.js';
import AnalyticsPlugin from '../../../../plugins/observe/analytics/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, configHeaders, postJson, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { getJson, logService, mockHeaders, startObserved } from '../logs/harness.js';
import { PricingService } from '../../../../plugins/policies/usage-limits/contract.js';

/** A stand-in for the usage-limits plugin's price table. */
const PricingPlugin = definePlugin({
  id: 'test.pricing',
  options: Type.Object({}),
  provides: [PricingService],
  apply(api) {
    api.services.provide(PricingService, {
      cost: (_provider, model, u) => !u ? null
        : model === 'gpt-4o' ? (u.prompt_tokens ?? 0) * 0.01 + (u.completion_tokens ?? 0) * 0.03 : (u.prompt_tokens ?? 0) * 0.001 + (u.completion_tokens ?? 0) * 0.002,
      priceOf: () => undefined,
    });
  },
});

interface Log {
  model: string | null;
  status: number;
  latency_ms: number;
  cache_status: string | null;
  cost: number | null;
  created_at: string;
  ai_service: string | null;
  config_id: string | null;
  prompt_id: string | null;
  usage: { prompt_tokens: number | null; completion_tokens: number | null; total_tokens: number | null };
}

/** Nearest rank: the value at rank ceil(p/100 × n) of the sorted values. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((p * sorted.length) / 100) - 1]!;
}

const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);
const known = (xs: (number | null)[]) => xs.filter((x): x is number => x !== null);

describe('observe.analytics', () => {
  let mock: MockOpenAI;
  let gw: TestGateway;
  let logs: Log[];
  const ALL_COLUMNS = 'cost,total_tokens,avg_tokens,avg_input_tokens,avg_output_tokens,avg_latency,p95_latency,p99_latency,success_rate,error_count,cache_hit_rate,last_seen,first_seen';

  before(async function () {
    this.timeout(30_000);
    mock = await startMockOpenAI();
    gw = await startObserved({ extra: [AnalyticsPlugin, PricingPlugin] });
    const cached = { provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`, cache: { mode: 'simple' } };
    for (let i = 0; i < 40; i++) {
      // Varied latencies, a few failures, two models, some cache hits.
      if (i % 10 === 3) mock.next({ status: 500 });
      else if (i % 10 === 7) mock.next({ status: 429 });
      else mock.next({ delayMs: (i * 7) % 23 });
      const model = i % 3 === 0 ? 'gpt-4o' : 'gpt-4o-mini';
      await postJson(gw.url, '/v1/chat/completions', { ...CHAT_BODY, model, messages: [{ role: 'user', content: `question ${i} ${'word '.repeat(i % 5)}` }] }, mockHeaders(mock));
    }
    for (let i = 0; i < 6; i++) {
      await postJson(gw.url, '/v1/chat/completions', { ...CHAT_BODY, messages: [{ role: 'user', content: `cached ${i % 2}` }] }, configHeaders(cached));
    }
    // A prompt template, and a config that names it.
    const put = await fetch(`${gw.url}/v1/prompts/greeting`, {
      method: 'PUT', headers: { 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello {{name}}' }] }),
    });
    expect(put.status).to.equal(200);
    const withPrompt = { provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`, prompt_id: 'greeting' };
    for (let i = 0; i < 3; i++) {
      const reply = await postJson(gw.url, '/v1/chat/completions', { variables: { name: `n${i}` } }, configHeaders(withPrompt));
      expect(reply.status).to.equal(200);
    }
    await logService(gw).flush();
    const list = await getJson(gw.url, '/v1/logs?page_size=100');
    logs = list.json.data;
    expect(logs).to.have.length(49);
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });

  const analytics = (groupBy: string, query = '') => getJson(gw.url, `/v1/analytics/groups/${groupBy}${query}`);

  function expected(rows: Log[]) {
    const latencies = rows.map((l) => l.latency_ms);
    const costs = known(rows.map((l) => l.cost));
    const times = rows.map((l) => Date.parse(l.created_at));
    return {
      requests: rows.length,
      cost: costs.length ? costs.reduce((a, b) => a + b, 0) : null,
      total_tokens: known(rows.map((l) => l.usage.total_tokens)).reduce((a, b) => a + b, 0),
      avg_tokens: mean(known(rows.map((l) => l.usage.total_tokens))),
      avg_input_tokens: mean(known(rows.map((l) => l.usage.prompt_tokens))),
      avg_output_tokens: mean(known(rows.map((l) => l.usage.completion_tokens))),
      avg_latency: mean(latencies),
      p95_latency: percentile(latencies, 95),
      p99_latency: percentile(latencies, 99),
      success_rate: rows.filter((l) => l.status >= 200 && l.status < 300).length / rows.length,
      error_count: rows.filter((l) => l.status >= 400).length,
      cache_hit_rate: rows.filter((l) => l.cache_status === 'HIT' || l.cache_status === 'SEMANTIC HIT').length / rows.length,
      last_seen: new Date(Math.max(...times)).toISOString(),
      first_seen: new Date(Math.min(...times)).toISOString(),
    };
  }

  function expectClose(actual: Record<string, unknown>, wanted: Record<string, unknown>, label: string) {
    for (const [key, value] of Object.entries(wanted)) {
      if (typeof value === 'number' && !Number.isInteger(value)) expect(actual[key], `${label}.${key}`).to.be.closeTo(value, 1e-6);
      else expect(actual[key], `${label}.${key}`).to.deep.equal(value);
    }
  }

  it('groups by model with every column, matching figures computed from the logs', async () => {
    const reply = await analytics('model', `?columns=${ALL_COLUMNS}`);
    expect(reply.status).to.equal(200);
    expect(reply.json).to.include({ object: 'list', group_by: 'model', total_count: 2, current_page: 0 });
    for (const row of reply.json.data) {
      expectClose(row, expected(logs.filter((l) => l.model === row.model)), row.model);
    }
    // Most requests first.
    expect(reply.json.data[0].requests).to.be.at.least(reply.json.data[1].requests);
    expect(reply.json.data.map((r: { model: string }) => r.model).sort()).to.deep.equal(['gpt-4o', 'gpt-4o-mini']);
  });

  it('answers the request count only without columns', async () => {
    const reply = await analytics('status_code');
    const counts = new Map<number, number>();
    for (const l of logs) counts.set(l.status, (counts.get(l.status) ?? 0) + 1);
    expect(reply.json.total_count).to.equal(counts.size);
    for (const row of reply.json.data) {
      expect(Object.keys(row).sort()).to.deep.equal(['requests', 'status_code']);
      expect(row.requests).to.equal(counts.get(row.status_code));
    }
  });

  it('groups by ai_service, provider, config, workspace, api_key and prompt', async () => {
    expect((await analytics('ai_service')).json.data).to.deep.equal([{ ai_service: 'openai', requests: 49 }]);
    expect((await analytics('provider')).json.data).to.deep.equal([{ provider: 'openai', requests: 49 }]);
    expect((await analytics('config')).json.data).to.deep.equal([{ config: null, requests: 49 }]);
    expect((await analytics('workspace')).json.data).to.deep.equal([{ workspace: null, requests: 49 }]);
    const keys = (await analytics('api_key')).json.data;
    expect(keys).to.have.length(1);
    expect(keys[0].requests).to.equal(49);
    expect(keys[0].api_key).to.be.a('string');
    expect((await analytics('prompt', '?columns=success_rate')).json.data).to.deep.equal([
      { prompt: null, requests: 46, success_rate: logs.filter((l) => l.prompt_id === null && l.status < 300).length / 46 },
      { prompt: 'greeting', requests: 3, success_rate: 1 },
    ]);
  });

  it('filters by time range and status, like the logs', async () => {
    const sorted = [...logs].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
    const from = sorted[10]!.created_at;
    const inRange = logs.filter((l) => Date.parse(l.created_at) >= Date.parse(from));
    const reply = await analytics('ai_service', `?columns=p95_latency,error_count&time_of_generation_min=${encodeURIComponent(from)}`);
    expectClose(reply.json.data[0], { requests: inRange.length, p95_latency: percentile(inRange.map((l) => l.latency_ms), 95), error_count: inRange.filter((l) => l.status >= 400).length }, 'range');
    const failed = await analytics('model', '?status_code=500,429&columns=success_rate');
    for (const row of failed.json.data) expect(row.success_rate).to.equal(0);
    expect(failed.json.data.reduce((n: number, r: { requests: number }) => n + r.requests, 0)).to.equal(logs.filter((l) => l.status === 500 || l.status === 429).length);
  });

  it('pages groups', async () => {
    const first = await analytics('status_code', '?page_size=1');
    const second = await analytics('status_code', '?page_size=1&current_page=1');
    expect(first.json.data).to.have.length(1);
    expect(second.json.data).to.have.length(1);
    expect(first.json.total_count).to.equal(second.json.total_count);
    expect(first.json.data[0].status_code).not.to.equal(second.json.data[0].status_code);
  });

  it('serves the same grouping on /v1/logs/groups/:groupBy', async () => {
    const a = await analytics('model', '?columns=avg_latency,cost');
    const l = await getJson(gw.url, '/v1/logs/groups/model?columns=avg_latency,cost');
    expect(l.status).to.equal(200);
    expect(l.json.data).to.deep.equal(a.json.data);
  });

  it('refuses an unknown groupBy, column or filter with a 400', async () => {
    const bad = [await analytics('colour'), await analytics('model', '?columns=cost,vibes'), await analytics('model', '?colour=red')];
    expect(bad.map((r) => r.status)).to.deep.equal([400, 400, 400]);
    expect(bad.map((r) => r.json.error.param)).to.deep.equal(['groupBy', 'columns', 'colour']);
  });

  it('refuses names of Object.prototype as groupBy with a 400, not a 500', async () => {
    for (const name of ['hasOwnProperty', 'constructor', '__proto__', 'toString']) {
      const reply = await analytics(name);
      expect(reply.status, name).to.equal(400);
      expect(reply.json.error.param).to.equal('groupBy');
    }
  });

  it('needs a gateway key', async () => {
    expect((await getJson(gw.url, '/v1/analytics/groups/model', {})).status).to.equal(401);
  });
});
