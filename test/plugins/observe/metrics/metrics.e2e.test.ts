/** observe.metrics: GET /metrics scraped and parsed after known traffic. */
import { expect } from 'chai';
import OpenAI from 'openai';
import { definePlugin, Errors, Stage, Type } from '../../../../core/index.js';
import MetricsPlugin from '../../../../plugins/observe/metrics/index.js';
import RequestLogsPlugin from '../../../../plugins/observe/logs/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, configHeaders, postJson, startGateway, type TestGateway } from '../../../helpers/gateway.js';
import { logService, mockHeaders } from '../logs/harness.js';
import { parsePrometheus, type Scrape } from './prom-text.js';

/** Refuses requests that carry `x-test-limit` the way a rate-limit policy does (429, code rate_limited). */
const FakeLimitPlugin = definePlugin({
  id: 'test.fake-limit',
  options: Type.Object({}),
  apply(api) {
    api.hooks.onRequest.tap({ name: 'test.fake-limit', stage: Stage.LIMITS }, (ctx) => {
      if (ctx.request.headers['x-test-limit']) throw Errors.rateLimited('rate limit of policy p1 exhausted', 1);
    });
  },
});

async function scrape(gw: TestGateway, headers: Record<string, string> = {}): Promise<{ status: number; contentType: string | null; metrics: Scrape; text: string }> {
  const res = await fetch(`${gw.url}/metrics`, { headers });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type'), metrics: res.status === 200 ? parsePrometheus(text) : parsePrometheus(''), text };
}

describe('observe.metrics', () => {
  let mock: MockOpenAI;
  before(async () => {
    mock = await startMockOpenAI();
  });
  after(async () => {
    await mock?.close();
  });

  describe('after known traffic', () => {
    let gw: TestGateway;
    let usage = { prompt: 0, completion: 0 };
    before(async () => {
      gw = await startGateway({ plugins: [FakeLimitPlugin, MetricsPlugin, { use: RequestLogsPlugin }] });
      const add = (u: { prompt_tokens: number; completion_tokens: number }) => {
        usage = { prompt: usage.prompt + u.prompt_tokens, completion: usage.completion + u.completion_tokens };
      };
      for (let i = 0; i < 3; i++) add((await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock))).json.usage);
      mock.next({ status: 500 });
      await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock));
      mock.next({ status: 429 });
      await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock));
      await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock, { 'x-test-limit': '1' }));
      const cached = { provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`, cache: { mode: 'simple' } };
      add((await postJson(gw.url, '/v1/chat/completions', { ...CHAT_BODY, messages: [{ role: 'user', content: 'cache me' }] }, configHeaders(cached))).json.usage);
      await postJson(gw.url, '/v1/chat/completions', { ...CHAT_BODY, messages: [{ role: 'user', content: 'cache me' }] }, configHeaders(cached));
      const client = new OpenAI({ apiKey: 'sk-x', baseURL: gw.url + '/v1', defaultHeaders: mockHeaders(mock), maxRetries: 0 });
      for await (const chunk of await client.chat.completions.create({ ...CHAT_BODY, messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } })) {
        if (chunk.usage) add(chunk.usage);
      }
      await logService(gw).flush();
    });
    after(async () => {
      await gw?.stop();
    });

    it('serves the Prometheus text format without a gateway key', async () => {
      const { status, contentType, metrics } = await scrape(gw);
      expect(status).to.equal(200);
      expect(contentType).to.equal('text/plain; version=0.0.4; charset=utf-8');
      expect(metrics.types.get('gw_requests_total')).to.equal('counter');
      expect(metrics.types.get('gw_request_duration_seconds')).to.equal('histogram');
      expect(metrics.types.get('gw_log_queue_depth')).to.equal('gauge');
    });

    it('counts requests by route, provider and status, with a latency histogram', async () => {
      const { metrics } = await scrape(gw);
      const chat = { route: '/v1/chat/completions', method: 'POST' };
      expect(metrics.value('gw_requests_total', { ...chat, provider: 'openai', status: '200' })).to.equal(6);
      expect(metrics.value('gw_requests_total', { ...chat, provider: 'openai', status: '500' })).to.equal(1);
      expect(metrics.value('gw_requests_total', { ...chat, provider: 'openai', status: '429' })).to.equal(1);
      expect(metrics.value('gw_requests_total', { ...chat, provider: '', status: '429' })).to.equal(1);
      const count = metrics.value('gw_request_duration_seconds_count', { route: '/v1/chat/completions', provider: 'openai' });
      expect(count).to.equal(8);
      const buckets = metrics.find('gw_request_duration_seconds_bucket', { route: '/v1/chat/completions', provider: 'openai' });
      const values = buckets.map((b) => b.value);
      expect(values).to.deep.equal([...values].sort((a, b) => a - b));
      expect(buckets.find((b) => b.labels['le'] === '+Inf')!.value).to.equal(count);
      expect(metrics.value('gw_request_duration_seconds_sum', { route: '/v1/chat/completions', provider: 'openai' })).to.be.greaterThan(0);
    });

    it('counts cache results and rate-limit rejections by source', async () => {
      const { metrics } = await scrape(gw);
      expect(metrics.value('gw_cache_results_total', { status: 'HIT' })).to.equal(1);
      expect(metrics.value('gw_cache_results_total', { status: 'MISS' })).to.equal(1);
      expect(metrics.value('gw_cache_results_total', { status: 'DISABLED' })).to.equal(6);
      expect(metrics.value('gw_rate_limited_total', { source: 'gateway' })).to.equal(1);
      expect(metrics.value('gw_rate_limited_total', { source: 'provider' })).to.equal(1);
    });

    it('counts tokens, upstream time and the log queue from the request logs', async () => {
      const { metrics } = await scrape(gw);
      const tokens = (type: string) => metrics.find('gw_tokens_total', { provider: 'openai', type }).reduce((n, s) => n + s.value, 0);
      expect(tokens('prompt')).to.equal(usage.prompt);
      expect(tokens('completion')).to.equal(usage.completion);
      expect(metrics.value('gw_tokens_total', { provider: 'openai', model: 'gpt-4o-mini', type: 'prompt' })).to.equal(usage.prompt);
      // Every request that called a provider (the cache hit and the limited one did not).
      expect(metrics.value('gw_upstream_duration_seconds_count', { provider: 'openai' })).to.equal(7);
      expect(metrics.value('gw_log_written_total')).to.equal(logService(gw).stats().written);
      expect(metrics.value('gw_log_queue_depth')).to.equal(0);
      expect(metrics.value('gw_log_queue_capacity')).to.equal(10_000);
      expect(metrics.value('gw_log_dropped_total')).to.equal(0);
    });

    it('counts its own scrapes as requests, outside any provider', async () => {
      await scrape(gw);
      const { metrics } = await scrape(gw);
      expect(metrics.value('gw_requests_total', { route: '/metrics', method: 'GET', provider: '', status: '200' })).to.be.at.least(1);
    });
  });

  it('counts calls refused by an open circuit', async () => {
    const gw = await startGateway({ plugins: [MetricsPlugin] });
    try {
      const config = { provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`, cb_config: { failure_threshold: 1, cooldown_interval: 30_000 } };
      mock.next({ status: 503 });
      expect((await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(config))).status).to.equal(503);
      const refused = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(config));
      expect(refused.json.error.code).to.equal('circuit_open');
      expect((await scrape(gw)).metrics.value('gw_circuit_open_total', { provider: 'openai' })).to.equal(1);
    } finally {
      await gw.stop();
    }
  });

  it('reports log drops and queue depth when the log queue is full', async () => {
    // A queue of 1 that is never flushed during the test: every entry but the last is shed.
    const gw = await startGateway({ plugins: [MetricsPlugin, { use: RequestLogsPlugin, options: { queueCapacity: 1, flushIntervalMs: 60_000 } }] });
    try {
      for (let i = 0; i < 5; i++) await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock));
      const { metrics } = await scrape(gw);
      expect(metrics.value('gw_log_dropped_total')).to.equal(4);
      expect(metrics.value('gw_log_queue_depth')).to.equal(1);
      expect(metrics.value('gw_log_queue_capacity')).to.equal(1);
    } finally {
      await gw.stop();
    }
  });

  it('works without the request logs (their series stay empty)', async () => {
    const gw = await startGateway({ composition: { plugins: [MetricsPlugin], disable: ['observe.logs', 'observe.analytics'] } });
    try {
      await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock));
      const { metrics } = await scrape(gw);
      expect(metrics.value('gw_requests_total', { route: '/v1/chat/completions', status: '200' })).to.equal(1);
      expect(metrics.find('gw_tokens_total')).to.deep.equal([]);
      expect(metrics.value('gw_log_queue_depth')).to.equal(0);
    } finally {
      await gw.stop();
    }
  });

  it('needs Authorization: Bearer <GW_METRICS_TOKEN> when the token is set', async () => {
    const gw = await startGateway({ plugins: [MetricsPlugin], env: { GW_METRICS_TOKEN: 'scrape-secret' } });
    try {
      const none = await scrape(gw);
      expect(none.status).to.equal(401);
      expect(JSON.parse(none.text).error.code).to.equal('invalid_api_key');
      expect((await scrape(gw, { authorization: 'Bearer wrong' })).status).to.equal(401);
      expect((await scrape(gw, { authorization: 'Basic scrape-secret' })).status).to.equal(401);
      expect((await scrape(gw, { authorization: 'Bearer scrape-secret' })).status).to.equal(200);
    } finally {
      await gw.stop();
    }
  });

  it('bounds model names a caller sends: a few hundred through the gateway, a cap of 5', async () => {
    const gw = await startGateway({
      plugins: [{ use: MetricsPlugin, options: { models: ['kept-model'], maxModels: 5 } }, { use: RequestLogsPlugin }],
    });
    try {
      let prompt = 0;
      for (let i = 0; i < 300; i += 10) {
        const batch = Array.from({ length: 10 }, (_, j) => postJson(gw.url, '/v1/chat/completions', { ...CHAT_BODY, model: `caller-model-${i + j}` }, mockHeaders(mock)));
        for (const reply of await Promise.all(batch)) prompt += reply.json.usage.prompt_tokens;
      }
      prompt += (await postJson(gw.url, '/v1/chat/completions', { ...CHAT_BODY, model: 'kept-model' }, mockHeaders(mock))).json.usage.prompt_tokens;
      await logService(gw).flush();
      const { text, metrics } = await scrape(gw);
      const series = metrics.find('gw_tokens_total', { provider: 'openai', type: 'prompt' });
      expect(series.map((s) => s.labels['model']).sort()).to.include.members(['kept-model', 'other']);
      expect(series).to.have.length(7);
      expect(metrics.value('gw_tokens_total', { provider: 'openai', model: 'other', type: 'prompt' })).to.be.greaterThan(0);
      expect(series.reduce((n, s) => n + s.value, 0)).to.equal(prompt);
      expect(metrics.find('gw_cost_total').length).to.be.at.most(7);
      expect(text).to.contain('model="other"');
      expect(text.length).to.be.below(32 * 1024);
    } finally {
      await gw.stop();
    }
  });

  it('refuses limits out of range when the gateway starts', async () => {
    let message = '';
    await startGateway({ plugins: [{ use: MetricsPlugin, options: { maxModels: -1 } }] }).then((gw) => gw.stop(), (e: Error) => (message = e.message));
    expect(message).to.contain('maxModels');
  });

  it('keeps two gateways in one process apart (a registry each)', async () => {
    const a = await startGateway({ plugins: [MetricsPlugin] });
    const b = await startGateway({ plugins: [{ use: MetricsPlugin, options: { processMetrics: true } }] });
    try {
      await postJson(a.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock));
      await postJson(a.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock));
      const chat = { route: '/v1/chat/completions', status: '200' };
      expect((await scrape(a)).metrics.value('gw_requests_total', chat)).to.equal(2);
      const bScrape = (await scrape(b)).metrics;
      expect(bScrape.value('gw_requests_total', chat)).to.equal(0);
      expect(bScrape.find('gw_process_cpu_user_seconds_total')).to.have.length(1);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
