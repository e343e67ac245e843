/** ConverseStream frames → chat.completion.chunk SSE events, translated as they arrive. */
import { expect } from 'chai';
import { GatewayError } from '../../../core/index.js';
import { converseStreamToSse } from '../../../providers/bedrock/chat-stream.js';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { converseStreamFrames, eventFrame, exceptionFrame } from '../../fixtures/mock-bedrock.js';

const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const USAGE = { inputTokens: 12, outputTokens: 5, totalTokens: 17 };

async function* fromChunks(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const c of chunks) yield c;
}

function concat(parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

/** The JSON data of each SSE event produced, in order. */
async function translate(chunks: Uint8Array[], includeUsage = false): Promise<any[]> {
  const events: any[] = [];
  const decoder = new TextDecoder();
  for await (const bytes of converseStreamToSse(fromChunks(chunks), { model: MODEL, includeUsage })) {
    const text = decoder.decode(bytes);
    expect(text).to.match(/^data: .*\n\n$/s);
    expect(text).to.not.include('[DONE]');
    events.push(JSON.parse(text.slice(6)));
  }
  return events;
}

async function failure(chunks: Uint8Array[]): Promise<{ error: unknown; before: any[] }> {
  const before: any[] = [];
  try {
    for await (const bytes of converseStreamToSse(fromChunks(chunks), { model: MODEL, includeUsage: false })) before.push(JSON.parse(new TextDecoder().decode(bytes).slice(6)));
  } catch (error) {
    return { error, before };
  }
  return expect.fail('expected the stream to fail');
}

describe('bedrock ConverseStream translation', () => {
  const textFrames = converseStreamFrames({ text: 'echo: one two three', stopReason: 'end_turn', usage: USAGE });

  it('translates a text answer: role chunk, content deltas, one finish_reason chunk', async () => {
    const events = await translate(textFrames);
    for (const e of events) {
      expect(e.object).to.equal('chat.completion.chunk');
      expect(e.model).to.equal(MODEL);
      expect(e.provider).to.equal('bedrock');
      expect(e.id).to.equal(events[0].id);
      expect(e.usage).to.equal(undefined);
    }
    expect(events[0].choices[0].delta).to.deep.equal({ role: 'assistant', content: '' });
    const text = events.map((e) => e.choices[0].delta.content ?? '').join('');
    expect(text).to.equal('echo: one two three');
    expect(events.filter((e) => e.choices[0].delta.content).length).to.be.at.least(3);
    const finishing = events.filter((e) => e.choices[0].finish_reason !== null);
    expect(finishing).to.have.length(1);
    expect(finishing[0].choices[0].finish_reason).to.equal('stop');
    expect(events[events.length - 1]).to.equal(finishing[0]);
  });

  it('adds one usage chunk with empty choices when include_usage is asked', async () => {
    const events = await translate(textFrames, true);
    const last = events[events.length - 1];
    expect(last.choices).to.deep.equal([]);
    expect(last.usage).to.deep.equal({ prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 });
    expect(events.filter((e) => e.usage)).to.have.length(1);
  });

  it('translates tool use: id and name once, input JSON deltas, tool indexes counted apart from text blocks', async () => {
    const frames = [
      eventFrame('messageStart', { role: 'assistant' }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Let me check.' } }),
      eventFrame('contentBlockStop', { contentBlockIndex: 0 }),
      eventFrame('contentBlockStart', { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'tooluse_a', name: 'get_weather' } } }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '{"city":' } } }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '"Paris"}' } } }),
      eventFrame('contentBlockStop', { contentBlockIndex: 1 }),
      eventFrame('contentBlockStart', { contentBlockIndex: 2, start: { toolUse: { toolUseId: 'tooluse_b', name: 'get_time' } } }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '{}' } } }),
      eventFrame('contentBlockStop', { contentBlockIndex: 2 }),
      eventFrame('messageStop', { stopReason: 'tool_use' }),
      eventFrame('metadata', { usage: USAGE, metrics: { latencyMs: 3 } }),
    ];
    const events = await translate(frames);
    const calls = events.flatMap((e) => e.choices[0]?.delta.tool_calls ?? []);
    expect(calls[0]).to.deep.equal({ index: 0, id: 'tooluse_a', type: 'function', function: { name: 'get_weather', arguments: '' } });
    expect(calls.filter((c: any) => c.index === 0).map((c: any) => c.function.arguments).join('')).to.equal('{"city":"Paris"}');
    expect(calls.filter((c: any) => c.index === 1)[0]).to.deep.include({ id: 'tooluse_b', type: 'function' });
    expect(calls.filter((c: any) => c.id)).to.have.length(2);
    expect(events.map((e) => e.choices[0]?.delta.content ?? '').join('')).to.equal('Let me check.');
    expect(events.filter((e) => e.choices[0]?.finish_reason).map((e) => e.choices[0].finish_reason)).to.deep.equal(['tool_calls']);
  });

  it('maps every stop reason', async () => {
    const cases: [string, string][] = [['end_turn', 'stop'], ['stop_sequence', 'stop'], ['max_tokens', 'length'], ['tool_use', 'tool_calls'],
      ['guardrail_intervened', 'content_filter'], ['content_filtered', 'content_filter'], ['something_new', 'stop']];
    for (const [stopReason, expected] of cases) {
      const events = await translate([eventFrame('messageStart', { role: 'assistant' }), eventFrame('messageStop', { stopReason })]);
      expect(events[events.length - 1].choices[0].finish_reason, stopReason).to.equal(expected);
    }
  });

  it('gives the same chunks whatever the byte split of the wire (every boundary)', async () => {
    const wire = concat(textFrames);
    const strip = (events: any[]) => events.map((e) => ({ ...e, id: '', created: 0 }));
    const expected = strip(await translate([wire], true));
    for (let cut = 1; cut < wire.byteLength; cut++) {
      expect(strip(await translate([wire.subarray(0, cut), wire.subarray(cut)], true)), `cut at ${cut}`).to.deep.equal(expected);
    }
  });

  it('emits the first chunk as soon as the first frame arrives (incremental, never buffered)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    let secondPulled = false;
    async function* slow(): AsyncGenerator<Uint8Array> {
      yield textFrames[0]!;
      await gate;
      secondPulled = true;
      yield concat(textFrames.slice(1));
    }
    const iterator = converseStreamToSse(slow(), { model: MODEL, includeUsage: false })[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done).to.equal(false);
    expect(secondPulled).to.equal(false);
    release();
    let rest = 0;
    for (let r = await iterator.next(); !r.done; r = await iterator.next()) rest++;
    expect(rest).to.be.greaterThan(3);
  });

  it('throws the provider exception (status, type, message) after the chunks already sent', async () => {
    const frames = [...textFrames.slice(0, 3), exceptionFrame('throttlingException', 'Too many tokens, please wait.')];
    const { error, before } = await failure(frames);
    expect(before.length).to.equal(3);
    expect(error).to.be.instanceOf(GatewayError);
    const e = error as GatewayError;
    expect(e.status).to.equal(429);
    expect(e.type).to.equal('ThrottlingException');
    expect(e.message).to.equal('Too many tokens, please wait.');
    expect(e.provider).to.equal('bedrock');
    const first = await failure([exceptionFrame('modelStreamErrorException', 'model failed')]);
    expect(first.before).to.have.length(0);
    expect((first.error as GatewayError).status).to.equal(424);
    const internal = await failure([exceptionFrame('internalServerException', 'boom')]);
    expect((internal.error as GatewayError).status).to.equal(500);
  });

  it('throws on an event-stream error frame and on an unknown message type', async () => {
    const codec = new EventStreamCodec(toUtf8, fromUtf8);
    const errorFrame = codec.encode({
      headers: {
        ':message-type': { type: 'string', value: 'error' },
        ':error-code': { type: 'string', value: 'InternalFailure' },
        ':error-message': { type: 'string', value: 'stream broke' },
      },
      body: new Uint8Array(0),
    });
    const { error } = await failure([textFrames[0]!, errorFrame]);
    expect((error as GatewayError).status).to.equal(502);
    expect((error as GatewayError).message).to.equal('stream broke');
    expect((error as GatewayError).type).to.equal('InternalFailure');
    const odd = codec.encode({ headers: { ':message-type': { type: 'string', value: 'surprise' } }, body: new Uint8Array(0) });
    expect(((await failure([odd])).error as GatewayError).message).to.match(/unknown message type "surprise"/);
  });

  it('fails a stream that ends before messageStop (a cut answer is not a whole one)', async () => {
    const { error, before } = await failure(textFrames.slice(0, 4));
    expect(before.length).to.equal(4);
    expect((error as GatewayError).status).to.equal(502);
    expect((error as GatewayError).message).to.match(/before messageStop/);
  });
});
