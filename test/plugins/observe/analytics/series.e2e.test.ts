/**
 * observe.analytics `GET /v1/analytics/graphs/overview`: figures per time bucket, checked against
 * values computed here from the same logs (read back through /v1/logs), and its refusals.
 */
import { expect } from 'chai';
import { definePlugin, Type } from '../../../../core/index.js';
import AnalyticsPlugin from '../../../../plugins/observe/analytics/index.js';
import { PricingService } from '../../../../plugins/policies/usage-limits/contract.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, configHeaders, postJson, type TestGateway } from '../../../helpers/gateway.js';
import { getJson, logService, mockHeaders, startObserved } from '../logs/harness.js';

const PricingPlugin = definePlugin({
  id: 'test.pricing',
  options: Type.Object({}),
  provides: [PricingService],
  apply(api) {
    api.services.provide(PricingService, {
      cost: (_provider, _model, u) => (u ? (u.prompt_tokens ?? 0) * 0.001 + (u.completion_tokens ?? 0) * 0.002 : null),
      priceOf: () => undefined,
    });
  },
});

interface Log {
  status: number;
  latency_ms: number;
  cache_status: string | null;
  cost: number | null;
  created_at: string;
  usage: { prompt_tokens: number | null; completion_tokens: number | null; total_tokens: number | null };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((p * sorted.length) / 100) - 1]!;
}

const sum = (xs: (number | null)[]) => xs.reduce<number>((a, b) => a + (b ?? 0), 0);

function expected(rows: Log[]) {
  const latencies = rows.map((l) => l.latency_ms);
  const errors = rows.filter((l) => l.status >= 400).length;
  const hits = rows.filter((l) => l.cache_status === 'HIT' || l.cache_status === 'SEMANTIC HIT').length;
  const costs = rows.map((l) => l.cost).filter((c): c is number => c !== null);
  return {
    requests: rows.length,
    errors,
    error_rate: errors / rows.length,
    avg_latency: sum(latencies) / rows.length,
    p50_latency: percentile(latencies, 50),
    p95_latency: percentile(latencies, 95),
    p99_latency: percentile(latencies, 99),
    prompt_tokens: sum(rows.map((l) => l.usage.prompt_tokens)),
    completion_tokens: sum(rows.map((l) => l.usage.completion_tokens)),
    total_tokens: sum(rows.map((l) => l.usage.total_tokens)),
    cost: costs.length ? sum(costs) : null,
    cache_hits: hits,
    cache_hit_rate: hits / rows.length,
  };
}

function expectClose(actual: Record<string, unknown>, wanted: Record<string, unknown>, label: string) {
  for (const [key, value] of Object.entries(wanted)) {
    if (typeof value === 'number' && !Number.isInteger(value)) expect(actual[key], `${label}.${key}`).to.be.closeTo(value, 1e-6);
    else expect(actual[key], `${label}.${key}`).to.deep.equal(value);
  }
}

describe('observe.analytics: figures over time (graphs/overview)', () => {
  let mock: MockOpenAI;
  let gw: TestGateway;
  let logs: Log[];
  let first: number;
  let last: number;

  before(async function () {
    this.timeout(30_000);
    mock = await startMockOpenAI();
    gw = await startObserved({ extra: [AnalyticsPlugin, PricingPlugin] });
    for (let i = 0; i < 16; i++) {
      if (i % 5 === 2) mock.next({ status: 500 });
      else mock.next({ delayMs: (i * 7) % 13 });
      await postJson(gw.url, '/v1/chat/completions', { ...CHAT_BODY, messages: [{ role: 'user', content: `q ${i}` }] }, mockHeaders(mock));
    }
    const cached = { provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`, cache: { mode: 'simple' } };
    for (let i = 0; i < 4; i++) {
      await postJson(gw.url, '/v1/chat/completions', { ...CHAT_BODY, messages: [{ role: 'user', content: 'cached' }] }, configHeaders(cached));
    }
    await logService(gw).flush();
    logs = (await getJson(gw.url, '/v1/logs?page_size=100')).json.data;
    expect(logs).to.have.length(20);
    const times = logs.map((l) => Date.parse(l.created_at));
    first = Math.min(...times);
    last = Math.max(...times);
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });

  const overview = (query = '') => getJson(gw.url, `/v1/analytics/graphs/overview${query}`);
  const range = (from: number, to: number) => `time_of_generation_min=${from}&time_of_generation_max=${to}`;

  it('answers the summary of the range, matching figures computed from the logs', async () => {
    const reply = await overview(`?${range(first - 1000, last + 1000)}`);
    expect(reply.status).to.equal(200);
    expect(reply.json).to.include({ object: 'analytics-graph', bucket: '1m', bucket_ms: 60_000 });
    expectClose(reply.json.summary, expected(logs), 'summary');
    expect(reply.json.summary.cache_hits).to.be.at.least(3);
    expect(reply.json.summary.errors).to.be.at.least(3);
  });

  it('cuts the range into UTC buckets, empty ones included, each matching its logs', async () => {
    const from = first - 10 * 60_000;
    const reply = await overview(`?${range(from, last)}&bucket=1m`);
    const points = reply.json.data_points as ({ timestamp: string } & Record<string, unknown>)[];
    const start = Math.floor(from / 60_000) * 60_000;
    expect(points.length).to.equal(Math.floor(last / 60_000) - Math.floor(from / 60_000) + 1);
    expect(Date.parse(points[0]!.timestamp)).to.equal(start);
    for (const point of points) {
      const t = Date.parse(point.timestamp);
      expect(t % 60_000).to.equal(0);
      const inBucket = logs.filter((l) => Math.floor(Date.parse(l.created_at) / 60_000) * 60_000 === t);
      if (inBucket.length) expectClose(point, expected(inBucket), point.timestamp);
      else expect(point).to.deep.include({ requests: 0, errors: 0, error_rate: null, p50_latency: null, total_tokens: 0, cost: null, cache_hit_rate: null });
    }
    expect(points.reduce((n, p) => n + Number(p['requests']), 0)).to.equal(20);
  });

  it('chooses a bucket giving at most 240 points when none is asked, and a day by default', async () => {
    const week = await overview(`?${range(last - 7 * 86_400_000, last)}`);
    expect(week.json.bucket).to.equal('1h');
    expect(week.json.data_points.length).to.be.at.most(240);
    const day = await overview();
    expect(day.status).to.equal(200);
    expect(day.json.bucket).to.equal('15m');
    expect(Date.parse(day.json.time_of_generation_max) - Date.parse(day.json.time_of_generation_min)).to.equal(86_400_000);
    expect(day.json.summary.requests).to.equal(20);
  });

  it('takes the log filters', async () => {
    const failed = await overview(`?${range(first, last)}&status_code=500`);
    expect(failed.json.summary.requests).to.equal(logs.filter((l) => l.status === 500).length);
    expect(failed.json.summary.error_rate).to.equal(1);
    const none = await overview(`?${range(first, last)}&model=no-such-model`);
    expect(none.json.summary).to.deep.include({ requests: 0, p99_latency: null, cost: null });
  });

  it('refuses an unknown bucket, too many points, an unknown filter and a reversed range with a 400 naming the field', async () => {
    const bad = [
      await overview('?bucket=2m'),
      await overview('?bucket=constructor'),
      await overview(`?${range(0, 86_400_000 * 30)}&bucket=1m`),
      await overview(`?${range(0, 86_400_000 * 3000)}`),
      await overview('?colour=red'),
      await overview(`?${range(last, first)}`),
    ];
    expect(bad.map((r) => r.status)).to.deep.equal([400, 400, 400, 400, 400, 400]);
    expect(bad.map((r) => r.json.error.param)).to.deep.equal(['bucket', 'bucket', 'bucket', 'time_of_generation_min', 'colour', 'time_of_generation_min']);
    expect(bad[2]!.json.error.message).to.match(/more than 1500 points/);
  });

  it('needs a gateway key', async () => {
    expect((await getJson(gw.url, '/v1/analytics/graphs/overview', {})).status).to.equal(401);
  });
});
