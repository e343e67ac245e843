/** Token usage of answers: JSON bodies scanned for their usage, streams metered as they pass. */
import { expect } from 'chai';
import { JsonPayload, RequestValues, type GatewayResponse, type RequestContext } from '../../../../core/index.js';
import { meterStream, usageOf } from '../../../../plugins/policies/limits-common/usage.js';

const ctx = (body: Record<string, unknown> = { model: 'asked-model', messages: [{ role: 'user', content: 'abcdefgh' }] }) =>
  ({ body, values: new RequestValues() }) as unknown as RequestContext;
const jsonAnswer = (text: string, headers: Record<string, string> = {}): GatewayResponse => ({ status: 200, headers, json: JsonPayload.fromBytes(Buffer.from(text)) });

async function drain(stream: AsyncIterable<Uint8Array>): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += Buffer.from(chunk).toString();
  return out;
}

function streamOf(parts: string[]): AsyncIterable<Uint8Array> {
  return (async function* () {
    for (const p of parts) yield Buffer.from(p);
  })();
}

describe('policy.rate-limits: usage of answers', () => {
  it('reads the last usage object of a JSON answer, and its model', () => {
    const text = JSON.stringify({
      id: 'x', model: 'gpt-4o-2024-08-06',
      choices: [{ message: { content: 'the "usage": {"prompt_tokens": 999} is quoted text' } }],
      usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
    });
    expect(usageOf(ctx(), jsonAnswer(text))).to.deep.equal({ promptTokens: 12, completionTokens: 5, model: 'gpt-4o-2024-08-06', estimated: false });
  });

  it('reads input_tokens/output_tokens, prompt-only usage, and answers without usage', () => {
    expect(usageOf(ctx(), jsonAnswer('{"usage": {"input_tokens": 3, "output_tokens": 4}}'))).to.deep.include({ promptTokens: 3, completionTokens: 4, model: 'asked-model' });
    expect(usageOf(ctx(), jsonAnswer('{"object":"list","usage":{"prompt_tokens":7,"total_tokens":7}}'))).to.deep.include({ promptTokens: 7, completionTokens: 0 });
    expect(usageOf(ctx(), jsonAnswer('{"error":{"message":"no"}}'))).to.equal(undefined);
    expect(usageOf(ctx(), jsonAnswer('{"usage": null}'))).to.equal(undefined);
    expect(usageOf(ctx(), { status: 200, headers: {}, json: JsonPayload.of({ usage: { prompt_tokens: 1, completion_tokens: 2 } }) })).to.deep.include({ promptTokens: 1, completionTokens: 2 });
  });

  it('counts nothing for cache hits', () => {
    const text = '{"usage":{"prompt_tokens":1,"completion_tokens":1}}';
    expect(usageOf(ctx(), jsonAnswer(text, { 'x-gw-cache-status': 'HIT' }))).to.equal(undefined);
    expect(usageOf(ctx(), jsonAnswer(text, { 'x-gw-cache-status': 'SEMANTIC HIT' }))).to.equal(undefined);
    expect(usageOf(ctx(), jsonAnswer(text, { 'x-gw-cache-status': 'MISS' }))).to.not.equal(undefined);
  });

  it('meters a stream as it passes, bytes unchanged: the usage chunk, whatever the chunking and line ends', async () => {
    const events = [
      'data: {"model":"m-1","choices":[{"delta":{"content":"Hel"}}]}\r\n\r\n',
      'data: {"choices":[{"delta":{"content":"lo"}}]}\n\ndata: {"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":2}}\n\n',
      'data: [DONE]\n\n',
    ].join('');
    const parts = [events.slice(0, 10), events.slice(10, 57), events.slice(57, 58), events.slice(58)];
    const c = ctx();
    const response: GatewayResponse = { status: 200, headers: {}, stream: streamOf(parts) };
    meterStream(c, response);
    expect(await drain(response.stream!)).to.equal(events);
    expect(usageOf(c, response)).to.deep.equal({ promptTokens: 9, completionTokens: 2, model: 'm-1', estimated: false });
  });

  it('estimates a stream without usage at 4 characters per token; a second meter is not added', async () => {
    const c = ctx();
    const response: GatewayResponse = {
      status: 200, headers: {},
      stream: streamOf(['data: {"choices":[{"delta":{"content":"12345"}}]}\n\n', 'data: {"choices":[{"text":"678"}]}\n\ndata: [DONE]\n\n']),
    };
    meterStream(c, response);
    const wrapped = response.stream;
    meterStream(c, response);
    expect(response.stream).to.equal(wrapped);
    await drain(response.stream!);
    // Prompt "abcdefgh": 8 characters → 2; streamed "12345678": 8 → 2.
    expect(usageOf(c, response)).to.deep.equal({ promptTokens: 2, completionTokens: 2, model: 'asked-model', estimated: true });
  });

  it('meters a Messages stream: input tokens from message_start, output from message_delta', async () => {
    const events = [
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","model":"claude-x","usage":{"input_tokens":10,"cache_read_input_tokens":5,"output_tokens":1}}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}\n\n',
      'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":7}}\n\n',
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    ];
    const c = ctx();
    const response: GatewayResponse = { status: 200, headers: {}, stream: streamOf(events) };
    meterStream(c, response);
    await drain(response.stream!);
    expect(usageOf(c, response)).to.deep.equal({ promptTokens: 10, completionTokens: 7, model: 'claude-x', estimated: false });
  });

  it('estimates a Messages stream without usage from its deltas', async () => {
    const c = ctx();
    const response: GatewayResponse = {
      status: 200, headers: {},
      stream: streamOf(['event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"12345678"}}\n\n']),
    };
    meterStream(c, response);
    await drain(response.stream!);
    expect(usageOf(c, response)).to.deep.include({ completionTokens: 2, estimated: true });
  });

  it('knows nothing of a stream that never started', () => {
    const c = ctx();
    const response: GatewayResponse = { status: 200, headers: {}, stream: streamOf([]) };
    meterStream(c, response);
    expect(usageOf(c, response)).to.equal(undefined);
  });
});
