/** Cohere v2 stream events → unified chunks: incremental, and failing loudly rather than ending quietly. */
import { expect } from 'chai';
import { cohereChatChunks } from '../../../providers/cohere/chat-stream.js';
import { fromCohereChat } from '../../../providers/cohere/chat-response.js';

const encoder = new TextEncoder();
const event = (data: unknown) => encoder.encode(`event: ${(data as { type: string }).type}\ndata: ${JSON.stringify(data)}\n\n`);
const OPTIONS = { model: 'command-a', provider: 'cohere', includeUsage: false, fallbackId: () => 'gen-id' };
const START = { id: 'msg-1', type: 'message-start', delta: { message: { role: 'assistant' } } };
const DELTA = (text: string) => ({ type: 'content-delta', index: 0, delta: { message: { content: { text } } } });
const END = (finish: string, extra: Record<string, unknown> = {}) => ({
  type: 'message-end', delta: { finish_reason: finish, usage: { billed_units: { input_tokens: 3, output_tokens: 4 }, tokens: { input_tokens: 30, output_tokens: 4 } }, ...extra },
});

async function* from(events: unknown[]): AsyncGenerator<Uint8Array> {
  for (const e of events) yield event(e);
}

async function all(events: unknown[], includeUsage = false) {
  const out = [];
  for await (const c of cohereChatChunks(from(events), { ...OPTIONS, includeUsage })) out.push(c);
  return out;
}

describe('cohere: chat stream', () => {
  it('translates each event as it arrives: the first chunk leaves before the next event exists', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* slow(): AsyncGenerator<Uint8Array> {
      yield event(START);
      yield event(DELTA('Hel'));
      await gate; // the provider has not sent more yet
      yield event(DELTA('lo'));
      yield event(END('COMPLETE'));
    }
    const it = cohereChatChunks(slow(), OPTIONS)[Symbol.asyncIterator]();
    expect((await it.next()).value.choices[0].delta).to.deep.equal({ role: 'assistant', content: '' });
    expect((await it.next()).value.choices[0].delta).to.deep.equal({ content: 'Hel' });
    release();
    expect((await it.next()).value.choices[0].delta).to.deep.equal({ content: 'lo' });
    const end = (await it.next()).value;
    expect(end.choices[0].finish_reason).to.equal('stop');
    expect((await it.next()).done).to.equal(true);
  });

  it('keeps the message id and model on every chunk, and adds a usage chunk only when asked', async () => {
    const chunks = await all([START, DELTA('a'), END('MAX_TOKENS')], true);
    expect(chunks.map((c) => c.id)).to.deep.equal(['msg-1', 'msg-1', 'msg-1', 'msg-1']);
    expect(chunks.every((c) => c.model === 'command-a' && c.object === 'chat.completion.chunk')).to.equal(true);
    expect(chunks[2]!.choices[0]!.finish_reason).to.equal('length');
    expect(chunks[3]!.choices).to.deep.equal([]);
    expect(chunks[3]!.usage).to.deep.equal({ prompt_tokens: 30, completion_tokens: 4, total_tokens: 34 });
    expect((await all([START, DELTA('a'), END('COMPLETE')])).some((c) => c.usage)).to.equal(false);
  });

  it('streams the tool plan as content and the tool call as id+name, then argument deltas', async () => {
    const chunks = await all([
      START,
      { type: 'tool-plan-delta', delta: { message: { tool_plan: 'I will' } } },
      { type: 'tool-call-start', index: 0, delta: { message: { tool_calls: { id: 'get_weather_1', type: 'function', function: { name: 'get_weather', arguments: '' } } } } },
      { type: 'tool-call-delta', index: 0, delta: { message: { tool_calls: { function: { arguments: '{"city":' } } } } },
      { type: 'tool-call-delta', index: 0, delta: { message: { tool_calls: { function: { arguments: '"Paris"}' } } } } },
      { type: 'tool-call-end', index: 0 },
      END('TOOL_CALL'),
    ]);
    expect(chunks.map((c) => c.choices[0]!.delta)).to.deep.equal([
      { role: 'assistant', content: '' },
      { content: 'I will' },
      { tool_calls: [{ index: 0, id: 'get_weather_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] },
      {},
    ]);
    expect(chunks[5]!.choices[0]!.finish_reason).to.equal('tool_calls');
  });

  it('throws on a message-end with finish_reason ERROR, with the provider\'s message', async () => {
    try {
      await all([START, DELTA('a'), END('ERROR', { error: 'model overloaded' })]);
      expect.fail('expected an error');
    } catch (e) {
      expect((e as Error).message).to.equal('model overloaded');
      expect((e as { provider: string }).provider).to.equal('cohere');
    }
  });

  it('throws when the stream ends without message-end (never a made-up finish)', async () => {
    try {
      await all([START, DELTA('a')]);
      expect.fail('expected an error');
    } catch (e) {
      expect((e as { status: number }).status).to.equal(502);
      expect((e as Error).message).to.contain('ended before message-end');
    }
  });

  it('throws on an event that is not JSON', async () => {
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield encoder.encode('data: {not json\n\n');
    }
    try {
      for await (const _ of cohereChatChunks(broken(), OPTIONS)) { /* drain */ }
      expect.fail('expected an error');
    } catch (e) {
      expect((e as { status: number }).status).to.equal(502);
    }
  });
});

describe('cohere: chat response', () => {
  it('maps text, finish reasons and usage (processed tokens preferred over billed ones)', () => {
    const out = fromCohereChat({
      id: 'r1', finish_reason: 'COMPLETE',
      message: { role: 'assistant', content: [{ type: 'text', text: 'Hel' }, { type: 'thinking' }, { type: 'text', text: 'lo' }] },
      usage: { billed_units: { input_tokens: 2, output_tokens: 3 }, tokens: { input_tokens: 20, output_tokens: 3 } },
    }, 'command-a', () => 'x');
    expect(out.id).to.equal('r1');
    expect(out.model).to.equal('command-a');
    expect(out.choices[0]!.message.content).to.equal('Hello');
    expect(out.choices[0]!.finish_reason).to.equal('stop');
    expect(out.usage).to.deep.equal({ prompt_tokens: 20, completion_tokens: 3, total_tokens: 23 });
    const finish = (reason: string) => fromCohereChat({ finish_reason: reason, message: {} }, 'm', () => 'x').choices[0]!.finish_reason;
    expect(['STOP_SEQUENCE', 'MAX_TOKENS', 'TOOL_CALL', 'CONTENT_BLOCKED', 'max_tokens'].map(finish)).to.deep.equal(['stop', 'length', 'tool_calls', 'content_filter', 'length']);
  });

  it('maps tool calls, with the tool plan as content', () => {
    const out = fromCohereChat({
      finish_reason: 'TOOL_CALL',
      message: { tool_plan: 'I will check.', tool_calls: [{ id: 't1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      usage: { billed_units: { input_tokens: 1, output_tokens: 1 } },
    }, 'm', () => 'gen');
    expect(out.id).to.equal('gen');
    expect(out.choices[0]!.message).to.deep.equal({
      role: 'assistant', content: 'I will check.', refusal: null,
      tool_calls: [{ id: 't1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
    });
    expect(out.choices[0]!.finish_reason).to.equal('tool_calls');
    expect(out.usage!.total_tokens).to.equal(2);
  });
});
