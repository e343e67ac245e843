/**
 * Streams framed only by the end of the connection (`connection: close`, no content-length, no
 * chunked encoding): when the provider's socket closes, the transport sees a clean end whether
 * the provider finished or was cut. Only the provider's own end marker tells the two apart, so a
 * stream without it must reach the client as a cut stream (one error event, no `[DONE]`), and be
 * logged and counted as an error.
 */
import { expect } from 'chai';
import AnthropicProviderPlugin from '../../../../providers/anthropic/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { event, startUnframedSse, type UnframedSse } from '../../../fixtures/unframed-sse.js';
import { configHeaders, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { startGuardedGateway } from '../../guardrails/runner/harness.js';

const CHAT = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true };

function openaiChunk(delta: Record<string, unknown>, finishReason: string | null = null, extra: Record<string, unknown> = {}) {
  return { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra };
}

const OPENAI_HEAD = [event(openaiChunk({ role: 'assistant', content: '' })), event(openaiChunk({ content: 'Hel' }))];

const ANTHROPIC_HEAD = [
  event({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], model: 'claude-x', stop_reason: null, usage: { input_tokens: 5, output_tokens: 1 } } }, 'message_start'),
  event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
  event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } }, 'content_block_delta'),
];
const ANTHROPIC_END = [
  event({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
  event({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } }, 'message_delta'),
  event({ type: 'message_stop' }, 'message_stop'),
];

/** The data of each event of an SSE body. */
function dataOf(text: string): string[] {
  return text.split('\n\n').filter((e) => e.trim() !== '').map((e) => e.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n'));
}

describe('streams framed only by the connection end (connection: close)', () => {
  let provider: UnframedSse;
  let whole: MockOpenAI;
  let gw: TestGateway;
  const openai = () => configHeaders({ provider: 'openai', api_key: 'sk-test', custom_host: `${provider.url}/v1` });
  const anthropic = () => configHeaders({ provider: 'anthropic', api_key: 'sk-ant-test', custom_host: `${provider.url}/v1` });
  const stream = async (headers: Record<string, string>, body: unknown = CHAT) => {
    const res = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: res.status, data: dataOf(await res.text()) };
  };

  /** The log rows of a trace, once its batch is written. */
  const logsOf = async (traceId: string) => {
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${gw.url}/v1/logs?trace_id=${traceId}`, { headers: { 'x-gw-api-key': TEST_API_KEY } });
      const body = await res.json() as { data: { status: number; error_code: string | null }[] };
      if (body.data?.length) return body.data;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return [];
  };

  before(async () => {
    provider = await startUnframedSse();
    whole = await startMockOpenAI();
    gw = await startGuardedGateway({ plugins: [AnthropicProviderPlugin] });
  });
  after(async () => {
    await gw?.stop();
    await provider?.close();
    await whole?.close();
  });

  describe('OpenAI format', () => {
    it('ends a stream cut after two chunks with one error event and no [DONE]', async () => {
      provider.next(OPENAI_HEAD);
      const { status, data } = await stream(openai());
      expect(status).to.equal(200);
      expect(data).to.have.length(3);
      expect(JSON.parse(data[1]!).choices[0].delta.content).to.equal('Hel');
      const error = JSON.parse(data[2]!);
      expect(error.error.message).to.equal('provider openai stream ended before its end marker ([DONE] or a final finish_reason)');
      expect(error.error.code).to.equal('bad_gateway');
      expect(error.provider).to.equal('openai');
      expect(data).not.to.include('[DONE]');
    });

    it('passes a stream that ends with [DONE] on whole', async () => {
      provider.next([...OPENAI_HEAD, event(openaiChunk({}, 'stop')), event('[DONE]')]);
      const { status, data } = await stream(openai());
      expect(status).to.equal(200);
      expect(data).to.have.length(4);
      expect(data[3]).to.equal('[DONE]');
      expect(data.filter((d) => d.includes('"error"'))).to.deep.equal([]);
    });

    it('completes with [DONE] a stream whose last chunk carries a finish_reason', async () => {
      provider.next([...OPENAI_HEAD, event(openaiChunk({}, 'length'))]);
      const { data } = await stream(openai());
      expect(data).to.have.length(4);
      expect(JSON.parse(data[2]!).choices[0].finish_reason).to.equal('length');
      expect(data[3]).to.equal('[DONE]');
    });

    it('completes with [DONE] a stream whose last chunk is the usage chunk', async () => {
      const usage = openaiChunk({}, null, { usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
      usage.choices = [];
      provider.next([...OPENAI_HEAD, event(openaiChunk({}, 'stop')), event(usage)]);
      const { data } = await stream(openai(), { ...CHAT, stream_options: { include_usage: true } });
      expect(data).to.have.length(5);
      expect(JSON.parse(data[3]!).usage.total_tokens).to.equal(5);
      expect(data[4]).to.equal('[DONE]');
    });

    it('takes a finish_reason that is not the last chunk for a cut', async () => {
      // Choice 0 finished, choice 1 was still writing when the connection ended.
      const finished = openaiChunk({}, 'stop');
      const writing = openaiChunk({ content: 'wor' });
      (writing.choices[0] as { index: number }).index = 1;
      provider.next([...OPENAI_HEAD, event(finished), event(writing)]);
      const { data } = await stream(openai(), { ...CHAT, n: 2 });
      expect(JSON.parse(data[data.length - 1]!).error.code).to.equal('bad_gateway');
      expect(data).not.to.include('[DONE]');
    });

    it('adds nothing to a stream that ends with the provider\'s own error event, and logs that error', async () => {
      provider.next([...OPENAI_HEAD, event({ error: { message: 'The server is overloaded', type: 'server_error', code: 'overloaded' } })]);
      const { data } = await stream({ ...openai(), 'x-gw-trace-id': 'provider-error-event' });
      expect(data).to.have.length(3);
      expect(JSON.parse(data[2]!).error.message).to.equal('The server is overloaded');
      expect(data).not.to.include('[DONE]');
      const [row] = await logsOf('provider-error-event');
      expect(row!.status).to.equal(502);
      expect(row!.error_code).to.equal('overloaded');
    });

    it('answers 502 to a stream that ends before its first byte', async () => {
      provider.next([]);
      const res = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: openai(), body: JSON.stringify(CHAT) });
      expect(res.status).to.equal(502);
      const body = await res.json() as { error: { message: string; code: string }; provider: string };
      expect(body.error.message).to.equal('provider openai stream ended before its end marker ([DONE] or a final finish_reason)');
      expect(body.error.code).to.equal('bad_gateway');
      expect(body.provider).to.equal('openai');
    });

    it('falls back to the next target when a stream ends before its first byte', async () => {
      provider.next([]);
      const config = {
        strategy: { mode: 'fallback' },
        targets: [
          { provider: 'openai', api_key: 'sk-test', custom_host: `${provider.url}/v1` },
          { provider: 'openai', api_key: 'sk-test', custom_host: `${whole.url}/v1` },
        ],
      };
      const { status, data } = await stream(configHeaders(config));
      expect(status).to.equal(200);
      expect(data[data.length - 1]).to.equal('[DONE]');
    });

    it('takes a last event that is not whole JSON for a cut', async () => {
      provider.next([...OPENAI_HEAD, 'data: {"id":"chatcmpl-1","choices":[{"index":0,"finish_reason":"st']);
      const { data } = await stream(openai());
      expect(JSON.parse(data[data.length - 1]!).error.code).to.equal('bad_gateway');
      expect(data).not.to.include('[DONE]');
    });
  });

  describe('Anthropic format', () => {
    it('ends a stream cut before message_stop with one error event and no [DONE]', async () => {
      provider.next(ANTHROPIC_HEAD);
      const { status, data } = await stream(anthropic(), { ...CHAT, model: 'claude-x' });
      expect(status).to.equal(200);
      expect(JSON.parse(data[data.length - 2]!).choices[0].delta.content).to.equal('Hel');
      const error = JSON.parse(data[data.length - 1]!);
      expect(error.error.message).to.equal('provider anthropic stream ended before message_stop');
      expect(error.provider).to.equal('anthropic');
      expect(data.filter((d) => d.includes('"error"'))).to.have.length(1);
      expect(data).not.to.include('[DONE]');
    });

    it('ends a stream cut after message_delta (finish known, no message_stop) as cut', async () => {
      provider.next([...ANTHROPIC_HEAD, ...ANTHROPIC_END.slice(0, 2)]);
      const { data } = await stream(anthropic(), { ...CHAT, model: 'claude-x' });
      expect(JSON.parse(data[data.length - 1]!).error.message).to.equal('provider anthropic stream ended before message_stop');
      expect(data).not.to.include('[DONE]');
    });

    it('passes a stream that ends with message_stop on whole, ending in [DONE]', async () => {
      provider.next([...ANTHROPIC_HEAD, ...ANTHROPIC_END]);
      const { data } = await stream(anthropic(), { ...CHAT, model: 'claude-x' });
      expect(data[data.length - 1]).to.equal('[DONE]');
      expect(JSON.parse(data[data.length - 2]!).choices[0].finish_reason).to.equal('stop');
      expect(data.filter((d) => d.includes('"error"'))).to.deep.equal([]);
    });
  });

  describe('what observers see', () => {

    it('logs a cut stream as an error', async () => {
      provider.next(OPENAI_HEAD);
      await stream({ ...openai(), 'x-gw-trace-id': 'cut-stream-log' });
      const [row] = await logsOf('cut-stream-log');
      expect(row, 'a log row').to.not.equal(undefined);
      expect(row!.status).to.equal(502);
      expect(row!.error_code).to.equal('bad_gateway');
    });

    it('logs a whole stream as a success', async () => {
      provider.next([...OPENAI_HEAD, event(openaiChunk({}, 'stop')), event('[DONE]')]);
      await stream({ ...openai(), 'x-gw-trace-id': 'whole-stream-log' });
      const [row] = await logsOf('whole-stream-log');
      expect(row!.status).to.equal(200);
      expect(row!.error_code).to.equal(null);
    });

    it('logs the stream that was sent when a cut one was held by a guardrail and fell back', async () => {
      provider.next(OPENAI_HEAD);
      const held = { output_guardrails: [{ id: 'held', deny: true, 'test.forbid': { word: 'zzz' } }] };
      const config = {
        strategy: { mode: 'fallback' },
        targets: [
          { provider: 'openai', api_key: 'sk-test', custom_host: `${provider.url}/v1`, ...held },
          { provider: 'openai', api_key: 'sk-test', custom_host: `${whole.url}/v1` },
        ],
      };
      const { status, data } = await stream(configHeaders(config, { 'x-gw-trace-id': 'held-cut-fallback' }));
      expect(status).to.equal(200);
      expect(data[data.length - 1]).to.equal('[DONE]');
      const [row] = await logsOf('held-cut-fallback');
      expect(row!.status).to.equal(200);
      expect(row!.error_code).to.equal(null);
    });

    it('counts a cut stream under its error status in /metrics', async () => {
      provider.next(OPENAI_HEAD);
      await stream(openai());
      const text = await (await fetch(`${gw.url}/metrics`)).text();
      expect(text).to.match(/gw_requests_total\{route="\/v1\/chat\/completions",method="POST",provider="openai",status="502"\} [1-9]/);
    });
  });
});
