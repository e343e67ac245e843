import { expect } from 'chai';
import { GatewayError, parseSse } from '../../../core/index.js';
import { translateStream, type StreamSettings } from '../../../providers/anthropic/stream.js';
import { sse, STREAM_ERROR_MIDWAY, STREAM_TEXT, STREAM_THINKING, STREAM_TOOL_USE } from './fixtures.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const STRICT: StreamSettings = { provider: 'anthropic', strict: true, includeUsage: false };

/** The body as the network may cut it: pieces of `size` bytes (multi-byte characters split too). */
async function* pieces(text: string, size = Number.POSITIVE_INFINITY): AsyncGenerator<Uint8Array> {
  const bytes = encoder.encode(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, Math.min(bytes.length, i + size));
}

async function run(text: string, settings: StreamSettings = STRICT, size?: number): Promise<{ chunks: any[]; error?: unknown }> {
  const chunks: any[] = [];
  try {
    for await (const bytes of translateStream(parseSse(pieces(text, size)), settings)) {
      const s = decoder.decode(bytes);
      expect(s).to.match(/^data: .*\n\n$/s);
      chunks.push(JSON.parse(s.slice(6)));
    }
  } catch (error) {
    return { chunks, error };
  }
  return { chunks };
}

const text = (chunks: any[]) => chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
const finishing = (chunks: any[]) => chunks.filter((c) => c.choices[0]?.finish_reason);

describe('anthropic stream translation', () => {
  it('translates a text stream into chat.completion.chunk events', async () => {
    const { chunks, error } = await run(STREAM_TEXT);
    expect(error).to.equal(undefined);
    expect(chunks.map((c) => c.choices[0].delta)).to.deep.equal([{ role: 'assistant', content: '' }, { content: 'Hello' }, { content: '!' }, {}]);
    for (const c of chunks) {
      expect(c).to.include({ id: 'msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY', object: 'chat.completion.chunk', model: 'claude-sonnet-4-5-20250929', provider: 'anthropic' });
      expect(c).to.not.have.property('usage');
    }
    expect(finishing(chunks)).to.have.length(1);
    expect(chunks[3].choices[0].finish_reason).to.equal('stop');
    expect(new Set(chunks.map((c) => c.created)).size).to.equal(1);
  });

  it('gives the same result whatever the network chunking (3-byte pieces)', async () => {
    expect((await run(STREAM_THINKING, { ...STRICT, strict: false }, 3)).chunks.map((c) => c.choices[0].delta))
      .to.deep.equal((await run(STREAM_THINKING, { ...STRICT, strict: false })).chunks.map((c) => c.choices[0].delta));
  });

  it('adds one usage chunk with empty choices after the finish chunk when include_usage is set', async () => {
    const { chunks } = await run(STREAM_TEXT, { ...STRICT, includeUsage: true });
    const last = chunks[chunks.length - 1];
    expect(last.choices).to.deep.equal([]);
    expect(last.usage).to.deep.equal({ prompt_tokens: 25, completion_tokens: 15, total_tokens: 40 });
    expect(chunks.filter((c) => c.usage)).to.have.length(1);
    expect(chunks[chunks.length - 2].choices[0].finish_reason).to.equal('stop');
  });

  it('translates tool use: tool index 0 for block 1, id and name once, JSON deltas in order', async () => {
    const { chunks } = await run(STREAM_TOOL_USE);
    expect(text(chunks)).to.equal("Okay, let's check the weather.");
    const calls = chunks.flatMap((c) => c.choices[0].delta.tool_calls ?? []);
    expect(calls[0]).to.deep.equal({ index: 0, id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', type: 'function', function: { name: 'get_weather', arguments: '' } });
    expect(calls.slice(1)).to.deep.equal([
      { index: 0, function: { arguments: '{"location":' } },
      { index: 0, function: { arguments: ' "San Francisco, CA"' } },
      { index: 0, function: { arguments: ', "unit": "fahrenheit"}' } },
    ]);
    expect(JSON.parse(calls.map((c) => c.function.arguments).join(''))).to.deep.equal({ location: 'San Francisco, CA', unit: 'fahrenheit' });
    expect(finishing(chunks).map((c) => c.choices[0].finish_reason)).to.deep.equal(['tool_calls']);
  });

  it('numbers several tool calls 0, 1 ...', async () => {
    const start = (index: number, id: string) => ['content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name: 'f', input: {} } }] as [string, unknown];
    const json = (index: number, partial_json: string) => ['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }] as [string, unknown];
    const body = sse([
      ['message_start', { type: 'message_start', message: { id: 'm', model: 'c', usage: { input_tokens: 1 } } }],
      start(0, 'a'), json(0, '{}'), start(1, 'b'), json(1, '{"x":1}'),
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 2 } }],
      ['message_stop', { type: 'message_stop' }],
    ]);
    const calls = (await run(body)).chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(calls.map((c) => [c.index, c.id ?? null, c.function.arguments])).to.deep.equal([[0, 'a', ''], [0, null, '{}'], [1, 'b', ''], [1, null, '{"x":1}']]);
  });

  it('drops thinking under strict compliance', async () => {
    const { chunks } = await run(STREAM_THINKING);
    expect(chunks.some((c) => c.choices[0]?.delta.content_blocks)).to.equal(false);
    expect(text(chunks)).to.equal('The greatest common divisor of 1071 and 462 is **21**.');
  });

  it('surfaces thinking, signature and redacted thinking as delta.content_blocks without strict compliance', async () => {
    const { chunks } = await run(STREAM_THINKING, { ...STRICT, strict: false, includeUsage: true });
    const blocks = chunks.flatMap((c) => c.choices[0]?.delta.content_blocks ?? []);
    expect(blocks).to.deep.equal([
      { index: 0, type: 'thinking', thinking: 'I need to find the GCD of 1071 and 462 using the Euclidean algorithm.\n\n1071 = 2 × 462 + 147' },
      { index: 0, type: 'thinking', thinking: '\n462 = 3 × 147 + 21\n147 = 7 × 21 + 0' },
      { index: 0, type: 'thinking', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds...' },
      { index: 1, type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix...' },
    ]);
    expect(text(chunks)).to.equal('The greatest common divisor of 1071 and 462 is **21**.');
    expect(chunks[chunks.length - 1].usage).to.deep.equal({ prompt_tokens: 100, completion_tokens: 92, total_tokens: 192, prompt_tokens_details: { cached_tokens: 64 } });
  });

  it('throws the provider error of an error event after the chunks before it', async () => {
    const { chunks, error } = await run(STREAM_ERROR_MIDWAY);
    expect(text(chunks)).to.equal('Hel');
    expect(error).to.be.instanceOf(GatewayError);
    expect((error as GatewayError).toEnvelope()).to.deep.equal({
      error: { message: 'Overloaded', type: 'overloaded_error', param: null, code: null }, provider: 'anthropic',
    });
    expect((error as GatewayError).status).to.equal(529);
  });

  it('fails a stream that ends without message_stop, or starts without message_start, or is not JSON', async () => {
    const cut = STREAM_TEXT.slice(0, STREAM_TEXT.indexOf('event: message_delta'));
    const a = await run(cut);
    expect(a.chunks.length).to.equal(3);
    expect((a.error as GatewayError).status).to.equal(502);
    expect((a.error as GatewayError).message).to.match(/ended before message_stop/);
    const b = await run(STREAM_TEXT.slice(STREAM_TEXT.indexOf('event: content_block_start')));
    expect((b.error as GatewayError).message).to.match(/before message_start/);
    const c = await run('event: message_start\ndata: {not json\n\n');
    expect(c.error).to.be.instanceOf(SyntaxError);
  });

  it('ignores pings and unknown events', async () => {
    const extra = STREAM_TEXT.replace('event: content_block_stop', 'event: ping\ndata: {"type": "ping"}\n\nevent: future_event\ndata: {"type":"future_event"}\n\nevent: content_block_stop');
    expect((await run(extra)).chunks).to.have.length(4);
  });

  it('is incremental: the first chunk leaves before the provider sends more', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const cutAt = STREAM_TEXT.indexOf('event: content_block_start');
    async function* source() {
      yield encoder.encode(STREAM_TEXT.slice(0, cutAt));
      await gate;
      yield encoder.encode(STREAM_TEXT.slice(cutAt));
    }
    const iterator = translateStream(parseSse(source()), STRICT)[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(JSON.parse(decoder.decode(first.value!).slice(6)).choices[0].delta).to.deep.equal({ role: 'assistant', content: '' });
    release();
    let rest = 0;
    for (let r = await iterator.next(); !r.done; r = await iterator.next()) rest++;
    expect(rest).to.equal(3);
  });
});
