/** observe.tracing: traceparent in, x-gw-trace-id out, traceparent to the provider, OTLP spans to a local collector. */
import { expect } from 'chai';
import GuardrailsRunnerPlugin from '../../../../plugins/guardrails/runner/index.js';
import RequestLogsPlugin from '../../../../plugins/observe/logs/index.js';
import TracingPlugin from '../../../../plugins/observe/tracing/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, configHeaders, postJson, startGateway, type TestGateway } from '../../../helpers/gateway.js';
import { getJson, logService, mockHeaders, until } from '../logs/harness.js';
import { attr, startCollector, type Collector, type OtlpSpanJson } from './collector.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';
const traceparent = (flags = '01') => `00-${TRACE}-${PARENT}-${flags}`;
const W3C = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

describe('observe.tracing', () => {
  let mock: MockOpenAI;
  before(async () => {
    mock = await startMockOpenAI();
  });
  after(async () => {
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  const sentTraceparent = () => {
    const header = mock.requests.at(-1)?.headers['traceparent'];
    return typeof header === 'string' ? W3C.exec(header) : null;
  };

  describe('W3C trace context (no collector)', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startGateway({ plugins: [TracingPlugin, { use: RequestLogsPlugin }] });
    });
    after(async () => {
      await gw?.stop();
    });

    it('takes the trace id from traceparent when no x-gw-trace-id is sent, and forwards a child span', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock, { traceparent: traceparent() }));
      expect(reply.status).to.equal(200);
      expect(reply.headers.get('x-gw-trace-id')).to.equal(TRACE);
      const sent = sentTraceparent()!;
      expect(sent[1]).to.equal(TRACE);
      expect(sent[2]).not.to.equal(PARENT);
      expect(sent[3]).to.equal('01');
      // The log names the trace and the inbound parent span.
      await logService(gw).flush();
      const log = (await getJson(gw.url, `/v1/logs?trace_id=${TRACE}`)).json.data[0];
      expect(log).to.include({ trace_id: TRACE, parent_span_id: PARENT });
    });

    it('keeps x-gw-trace-id when both are sent, and the provider still joins the W3C trace', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock, { traceparent: traceparent(), 'x-gw-trace-id': 'my-trace' }));
      expect(reply.headers.get('x-gw-trace-id')).to.equal('my-trace');
      expect(sentTraceparent()![1]).to.equal(TRACE);
    });

    it('sends a traceparent built from the gateway trace id when the client sent none', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock));
      const traceId = reply.headers.get('x-gw-trace-id')!;
      expect(traceId).to.match(/^[0-9a-f-]{36}$/);
      const sent = sentTraceparent()!;
      expect(sent[1]).to.equal(traceId.replaceAll('-', ''));
      expect(sent[3]).to.equal('00');
      // A gateway trace id that is not hex maps to a stable W3C id.
      await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock, { 'x-gw-trace-id': 'order-42' }));
      const first = sentTraceparent()![1];
      await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock, { 'x-gw-trace-id': 'order-42' }));
      expect(sentTraceparent()![1]).to.equal(first).and.to.match(/^[0-9a-f]{32}$/);
    });

    it('ignores an invalid traceparent', async () => {
      for (const bad of ['00-00000000000000000000000000000000-00f067aa0ba902b7-01', 'ff-' + TRACE + '-' + PARENT + '-01', 'garbage', `00-${TRACE}-${PARENT}-01-extra`]) {
        const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock, { traceparent: bad }));
        expect(reply.status, bad).to.equal(200);
        expect(reply.headers.get('x-gw-trace-id'), bad).to.match(/^[0-9a-f-]{36}$/);
      }
    });

    it('gives each target of a fallback its own span id', async () => {
      mock.next({ status: 500 });
      const config = {
        strategy: { mode: 'fallback' },
        targets: [
          { provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1` },
          { provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1` },
        ],
      };
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(config, { traceparent: traceparent() }));
      expect(reply.status).to.equal(200);
      const spans = mock.requests.map((r) => W3C.exec(String(r.headers['traceparent']))!);
      expect(spans).to.have.length(2);
      expect(spans.map((s) => s[1])).to.deep.equal([TRACE, TRACE]);
      expect(spans[0]![2]).not.to.equal(spans[1]![2]);
    });
  });

  describe('propagation options', () => {
    let gw: TestGateway | undefined;
    afterEach(async () => {
      await gw?.stop();
      gw = undefined;
    });

    it('propagate: inbound sends traceparent only when the client sent one', async () => {
      gw = await startGateway({ plugins: [{ use: TracingPlugin, options: { propagate: 'inbound' } }] });
      await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock));
      expect(mock.requests.at(-1)!.headers['traceparent']).to.equal(undefined);
      await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock, { traceparent: traceparent() }));
      expect(sentTraceparent()![1]).to.equal(TRACE);
    });

    it('propagate: never, or a provider not listed, sends none (the trace id is still taken)', async () => {
      gw = await startGateway({ plugins: [{ use: TracingPlugin, options: { propagate: 'never' } }] });
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock, { traceparent: traceparent() }));
      expect(reply.headers.get('x-gw-trace-id')).to.equal(TRACE);
      expect(mock.requests.at(-1)!.headers['traceparent']).to.equal(undefined);
      await gw.stop();
      gw = await startGateway({ plugins: [{ use: TracingPlugin, options: { providers: ['anthropic'] } }] });
      await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock, { traceparent: traceparent() }));
      expect(mock.requests.at(-1)!.headers['traceparent']).to.equal(undefined);
    });
  });

  describe('OTLP export', () => {
    let collector: Collector;
    let gw: TestGateway;
    before(async () => {
      collector = await startCollector();
      gw = await startGateway({
        plugins: [GuardrailsRunnerPlugin, { use: TracingPlugin, options: { scheduledDelayMs: 20 } }],
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url + '/', OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-token=abc%20def', OTEL_SERVICE_NAME: 'gw-test' },
      });
    });
    after(async () => {
      await gw?.stop();
      await collector?.close();
    });

    const spansOf = async (traceId: string, count: number) => {
      await until(() => collector.spans().filter((s) => s.traceId === traceId).length >= count);
      return collector.spans().filter((s) => s.traceId === traceId);
    };

    it('exports request, attempt and hook spans, linked to the inbound parent and to what the provider received', async () => {
      const config = {
        provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`, retry: { attempts: 1 },
        input_guardrails: [{ id: 'words', 'default.wordCount': { minWords: 1, maxWords: 50 } }],
      };
      mock.next({ status: 503 });
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(config, { traceparent: traceparent(), 'x-gw-span-name': 'my-request' }));
      expect(reply.status).to.equal(200);
      const spans = await spansOf(TRACE, 3);
      const request = spans.find((s) => s.kind === 2)!;
      const attempt = spans.find((s) => s.kind === 3)!;
      const hook = spans.find((s) => s.kind === 1)!;
      expect(request).to.include({ name: 'my-request', parentSpanId: PARENT });
      expect(attr(request, 'http.response.status_code')).to.equal(200);
      expect(attr(request, 'http.route')).to.equal('/v1/chat/completions');
      expect(attr(request, 'gw.provider')).to.equal('openai');
      expect(attr(request, 'gw.retry_count')).to.equal(1);
      expect(attempt.parentSpanId).to.equal(request.spanId);
      expect(attr(attempt, 'gw.retry_count')).to.equal(1);
      expect(attr(attempt, 'gw.target')).to.equal('config');
      // The provider's parent span is the attempt span (both tries carry it).
      expect(mock.requests.map((r) => W3C.exec(String(r.headers['traceparent']))![2])).to.deep.equal([attempt.spanId, attempt.spanId]);
      expect(hook.parentSpanId).to.equal(attempt.spanId);
      expect(hook.name).to.equal('hook words');
      expect(attr(hook, 'gw.hook.verdict')).to.equal(true);
      expect(attr(hook, 'gw.hook.checks')).to.equal('default.wordCount');
      // Times nest: the attempt within the request.
      const ns = (s: OtlpSpanJson, k: 'startTimeUnixNano' | 'endTimeUnixNano') => BigInt(s[k]);
      expect(ns(attempt, 'startTimeUnixNano') >= ns(request, 'startTimeUnixNano')).to.equal(true);
      expect(ns(attempt, 'endTimeUnixNano') <= ns(request, 'endTimeUnixNano')).to.equal(true);
      expect(Number(ns(request, 'startTimeUnixNano') / 1_000_000n)).to.be.closeTo(Date.now(), 10_000);
      // Resource and headers from the OpenTelemetry variables.
      const body = collector.bodies.at(-1);
      expect(body.resourceSpans[0].resource.attributes).to.deep.include({ key: 'service.name', value: { stringValue: 'gw-test' } });
      expect(collector.headers.at(-1)!['x-collector-token']).to.equal('abc def');
      expect(collector.headers.at(-1)!['content-type']).to.equal('application/json');
    });

    it('records requests without a traceparent as new traces, errors included', async () => {
      mock.next({ status: 500 });
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock));
      expect(reply.status).to.equal(500);
      const traceId = reply.headers.get('x-gw-trace-id')!.replaceAll('-', '');
      const spans = await spansOf(traceId, 2);
      const request = spans.find((s) => s.kind === 2)!;
      expect(request.parentSpanId).to.equal(undefined);
      expect(request.status.code).to.equal(2);
      expect(attr(request, 'gw.trace_id')).to.equal(reply.headers.get('x-gw-trace-id'));
      expect(sentTraceparent()![3]).to.equal('01');
    });

    it('does not record a request whose parent is not sampled', async () => {
      const unsampled = '5bf92f3577b34da6a3ce929d0e0e4736';
      await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock, { traceparent: `00-${unsampled}-${PARENT}-00` }));
      expect(sentTraceparent()![3]).to.equal('00');
      const marker = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock));
      await spansOf(marker.headers.get('x-gw-trace-id')!.replaceAll('-', ''), 2);
      expect(collector.spans().filter((s) => s.traceId === unsampled)).to.deep.equal([]);
    });
  });

  describe('a failing or hung collector', () => {
    let collector: Collector;
    let gw: TestGateway | undefined;
    beforeEach(async () => {
      collector = await startCollector();
    });
    afterEach(async () => {
      await gw?.stop();
      gw = undefined;
      await collector.close();
    });

    it('never slows requests, and answers come whatever the collector does', async () => {
      collector.hang(true);
      gw = await startGateway({
        plugins: [{ use: TracingPlugin, options: { scheduledDelayMs: 10, exportTimeoutMs: 1000, maxExportBatchSize: 1 } }],
        env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: collector.url + '/v1/traces' },
      });
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock));
        expect(reply.status).to.equal(200);
        // Far below the export time-out a request would wait if it waited for the collector.
        expect(performance.now() - started).to.be.lessThan(500);
      }
      await until(() => collector.bodies.length >= 1);
    });

    it('drops a batch the collector refuses, and goes on with the next', async () => {
      collector.answer(500);
      gw = await startGateway({
        plugins: [{ use: TracingPlugin, options: { scheduledDelayMs: 10 } }],
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url },
      });
      await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock));
      await until(() => collector.bodies.length === 1);
      collector.answer(200);
      await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock));
      await until(() => collector.bodies.length === 2);
      expect(collector.bodies[1].resourceSpans[0].scopeSpans[0].spans).to.have.length(2);
    });
  });
});
