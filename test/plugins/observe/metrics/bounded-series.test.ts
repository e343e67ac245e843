/**
 * GatewayMetrics fed the way the plugin feeds it (answered requests, request-log batches), with
 * label values a caller chooses: 20,000 model names must not make 20,000 series. Scraped through
 * its real prom-client registry and parsed.
 */
import { expect } from 'chai';
import { GatewayMetrics, type LabelLimits, type RecordedUsage } from '../../../../plugins/observe/metrics/gateway-metrics.js';
import { parsePrometheus } from './prom-text.js';

const LIMITS: LabelLimits = { models: [], maxModels: 100, maxLabelValues: 200, maxSeries: 2000 };

function metricsWith(limits: Partial<LabelLimits> = {}): GatewayMetrics {
  return new GatewayMetrics({ prefix: 'gw_', buckets: [0.1, 1], processMetrics: false, limits: { ...LIMITS, ...limits }, logStats: () => undefined });
}

function logOf(model: string, prompt = 3, completion = 2): RecordedUsage {
  return {
    id: 'log-1', status: 200, latencyMs: 7, provider: 'openai', model, upstreamMs: 5,
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }, cost: 0.001, cacheStatus: null,
  };
}

describe('observe.metrics: bounded series', () => {
  it('keeps 20,000 caller-chosen model names to 100 series and `other`, counting every token', async () => {
    const metrics = metricsWith();
    const logs: RecordedUsage[] = [];
    for (let i = 0; i < 20_000; i++) logs.push(logOf(`model-${i}`));
    for (let i = 0; i < logs.length; i += 500) metrics.recorded(logs.slice(i, i + 500));
    const text = await metrics.metrics();
    const scrape = parsePrometheus(text);
    const prompt = scrape.find('gw_tokens_total', { type: 'prompt' });
    expect(prompt).to.have.length(101);
    expect(scrape.value('gw_tokens_total', { model: 'model-0', type: 'prompt' })).to.equal(3);
    expect(scrape.value('gw_tokens_total', { model: 'model-99', type: 'prompt' })).to.equal(3);
    expect(scrape.value('gw_tokens_total', { model: 'other', type: 'prompt' })).to.equal(3 * 19_900);
    expect(prompt.reduce((n, s) => n + s.value, 0)).to.equal(3 * 20_000);
    expect(scrape.find('gw_cost_total')).to.have.length(101);
    expect(scrape.value('gw_cost_total', { model: 'other' })).to.be.closeTo(0.001 * 19_900, 1e-6);
    // Unbounded, this scrape was megabytes; bounded it stays a few hundred lines.
    expect(text.length).to.be.below(64 * 1024);
  });

  it('keeps the listed models as themselves, whenever they first appear', async () => {
    const metrics = metricsWith({ models: ['gpt-4o'], maxModels: 2 });
    metrics.recorded(['a', 'b', 'c', 'gpt-4o', 'd'].map((m) => logOf(m)));
    const scrape = parsePrometheus(await metrics.metrics());
    const models = scrape.find('gw_tokens_total', { type: 'completion' }).map((s) => s.labels['model']).sort();
    expect(models).to.deep.equal(['a', 'b', 'gpt-4o', 'other']);
    expect(scrape.value('gw_tokens_total', { model: 'other', type: 'completion' })).to.equal(4);
  });

  it('agrees between tokens and cost on which models read `other`', async () => {
    const metrics = metricsWith({ maxModels: 1 });
    metrics.recorded([logOf('first'), logOf('second')]);
    const scrape = parsePrometheus(await metrics.metrics());
    expect(scrape.find('gw_tokens_total', { type: 'prompt' }).map((s) => s.labels['model'])).to.deep.equal(['first', 'other']);
    expect(scrape.find('gw_cost_total').map((s) => s.labels['model'])).to.deep.equal(['first', 'other']);
  });

  it('bounds providers, statuses and cache statuses of answered requests', async () => {
    const metrics = metricsWith({ maxLabelValues: 3 });
    for (let i = 0; i < 1000; i++) {
      metrics.request('/v1/chat/completions', 'POST', `@integration-${i}`, 200 + (i % 400), 0.05);
      metrics.cacheResult(`status-${i}`);
      metrics.circuitOpen(`@target-${i}`);
    }
    const scrape = parsePrometheus(await metrics.metrics());
    const requests = scrape.find('gw_requests_total');
    expect(new Set(requests.map((s) => s.labels['provider']))).to.deep.equal(new Set(['@integration-0', '@integration-1', '@integration-2', 'other']));
    expect(new Set(requests.map((s) => s.labels['status']))).to.deep.equal(new Set(['200', '201', '202', 'other']));
    expect(requests.reduce((n, s) => n + s.value, 0)).to.equal(1000);
    expect(scrape.find('gw_cache_results_total')).to.have.length(4);
    expect(scrape.value('gw_cache_results_total', { status: 'other' })).to.equal(997);
    expect(scrape.value('gw_circuit_open_total', { provider: 'other' })).to.equal(997);
    expect(scrape.find('gw_request_duration_seconds_count')).to.have.length(4);
  });

  it('caps the series of each metric: label sets beyond it count in one series of `other`s', async () => {
    const metrics = metricsWith({ maxLabelValues: 10_000, maxSeries: 50 });
    for (let i = 0; i < 1000; i++) metrics.request(`/route-${i}`, 'GET', `p-${i}`, 200, 0.5);
    const scrape = parsePrometheus(await metrics.metrics());
    const requests = scrape.find('gw_requests_total');
    expect(requests).to.have.length(51);
    expect(scrape.value('gw_requests_total', { route: 'other', method: 'other', provider: 'other', status: 'other' })).to.equal(950);
    expect(requests.reduce((n, s) => n + s.value, 0)).to.equal(1000);
    expect(scrape.find('gw_request_duration_seconds_count')).to.have.length(51);
    expect(scrape.value('gw_request_duration_seconds_count', { route: 'other', provider: 'other' })).to.equal(950);
    expect(scrape.value('gw_request_duration_seconds_bucket', { route: 'other', provider: 'other', le: '1' })).to.equal(950);
  });
});
