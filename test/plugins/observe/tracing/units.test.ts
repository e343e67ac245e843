/** observe.tracing building blocks: traceparent parsing, W3C ids, OTLP settings, the exporter's queue. */
import { expect } from 'chai';
import type { Transport, UpstreamReply, UpstreamRequest } from '../../../../core/index.js';
import { otlpTracesUrl, parseOtlpHeaders } from '../../../../plugins/observe/tracing/index.js';
import { attributes, OtlpExporter, unixNano, type OtlpSpan } from '../../../../plugins/observe/tracing/otlp-exporter.js';
import { asSpanId, formatTraceparent, isSampled, newSpanId, parseTraceparent, w3cTraceId } from '../../../../plugins/observe/tracing/trace-context.js';

const logger = { warn() {}, error() {}, info() {} } as never;

describe('observe.tracing units', () => {
  it('parses traceparent as W3C Trace Context says', () => {
    const tp = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    expect(parseTraceparent(tp)).to.deep.equal({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parentId: '00f067aa0ba902b7', flags: '01' });
    expect(parseTraceparent(tp.toUpperCase())?.traceId).to.equal('4bf92f3577b34da6a3ce929d0e0e4736');
    // A later version may carry more fields; version 00 may not; ff is invalid.
    expect(parseTraceparent('01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-more')?.flags).to.equal('01');
    for (const bad of [undefined, '', tp + '-more', 'ff' + tp.slice(2), '00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01',
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01', '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01']) {
      expect(parseTraceparent(bad), String(bad)).to.equal(undefined);
    }
    expect(formatTraceparent('a'.repeat(32), 'b'.repeat(16), '01')).to.equal(`00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`);
    expect(isSampled('01')).to.equal(true);
    expect(isSampled('03')).to.equal(true);
    expect(isSampled('00')).to.equal(false);
  });

  it('maps gateway trace ids to W3C ones: hex kept, UUID without dashes, anything else hashed stably', () => {
    expect(w3cTraceId('4BF92F3577B34DA6A3CE929D0E0E4736')).to.equal('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(w3cTraceId('0f8fad5b-d9cb-469f-a165-70867728950e')).to.equal('0f8fad5bd9cb469fa16570867728950e');
    expect(w3cTraceId('order-42')).to.match(/^[0-9a-f]{32}$/).and.to.equal(w3cTraceId('order-42'));
    expect(w3cTraceId('order-42')).not.to.equal(w3cTraceId('order-43'));
    expect(asSpanId('00F067AA0BA902B7')).to.equal('00f067aa0ba902b7');
    expect(asSpanId('span-a')).to.equal(undefined);
    const ids = new Set(Array.from({ length: 2000 }, newSpanId));
    expect(ids.size).to.equal(2000);
    for (const id of ids) expect(id).to.match(/^[0-9a-f]{16}$/);
  });

  it('reads the OpenTelemetry variables', () => {
    expect(otlpTracesUrl(undefined, {})).to.equal(undefined);
    expect(otlpTracesUrl(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' })).to.equal('http://c:4318/v1/traces');
    expect(otlpTracesUrl(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t/x' })).to.equal('http://t/x');
    expect(otlpTracesUrl(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' })).to.equal(undefined);
    expect(otlpTracesUrl('http://opt/v1/traces', {})).to.equal('http://opt/v1/traces');
    expect(parseOtlpHeaders('Api-Key=a%3Db, x=1 ,bad,=y')).to.deep.equal({ 'api-key': 'a=b', x: '1' });
  });

  it('encodes attributes and nanosecond times as OTLP JSON does', () => {
    expect(attributes({ s: 'x', i: 3, d: 1.5, b: false, none: undefined, nil: null })).to.deep.equal([
      { key: 's', value: { stringValue: 'x' } }, { key: 'i', value: { intValue: '3' } },
      { key: 'd', value: { doubleValue: 1.5 } }, { key: 'b', value: { boolValue: false } },
    ]);
    expect(unixNano(1_700_000_000_123.5)).to.equal('1700000000123500000');
    expect(unixNano(1_700_000_000_123)).to.equal('1700000000123000000');
  });

  it('bounds its queue (oldest dropped) and sends batches of at most maxBatchSize', async () => {
    const sent: number[] = [];
    const transport: Transport = {
      send: async (req: UpstreamRequest): Promise<UpstreamReply> => {
        sent.push(JSON.parse(String(req.body)).resourceSpans[0].scopeSpans[0].spans.length);
        return { status: 200, headers: {}, body: (async function* () {})(), bytes: async () => new Uint8Array(), text: async () => '', dump: async () => {} };
      },
      close: async () => {},
    };
    const exporter = new OtlpExporter(transport, {
      url: 'http://c/v1/traces', headers: {}, serviceName: 's', maxQueueSize: 5, maxBatchSize: 2, delayMs: 60_000, timeoutMs: 1000,
    }, logger);
    const span = (i: number) => ({ name: String(i) }) as OtlpSpan;
    exporter.add([0, 1, 2, 3, 4, 5, 6].map(span));
    expect(exporter.stats()).to.include({ queued: 5, dropped: 2 });
    await exporter.shutdown();
    expect(sent).to.deep.equal([2, 2, 1]);
    expect(exporter.stats()).to.include({ queued: 0, exported: 5, failed: 0 });
  });
});
