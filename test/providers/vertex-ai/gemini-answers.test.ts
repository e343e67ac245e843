/** Gemini answers → unified chat completions and chunks: finish reasons, usage, tool calls, stream events. */
import { expect } from 'chai';
import { GatewayError } from '../../../core/index.js';
import { fromGeminiResponse } from '../../../providers/vertex-ai/gemini-response.js';
import { geminiStreamToUnified } from '../../../providers/vertex-ai/gemini-stream.js';
import type { GeminiResponse } from '../../../providers/vertex-ai/gemini-common.js';

const USAGE = { promptTokenCount: 7, candidatesTokenCount: 5, totalTokenCount: 12 };
const text = (t: string, finishReason?: string): GeminiResponse => ({
  candidates: [{ content: { role: 'model', parts: [{ text: t }] }, ...(finishReason ? { finishReason } : {}) }],
  modelVersion: 'gemini-2.0-flash-001',
  responseId: 'r1',
});

async function* bytes(...pieces: string[]): AsyncGenerator<Uint8Array> {
  for (const p of pieces) yield Buffer.from(p);
}

const sse = (...events: unknown[]) => events.map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`).join('');

async function chunksOf(source: AsyncIterable<Uint8Array>, includeUsage = false): Promise<any[]> {
  const out: any[] = [];
  for await (const b of geminiStreamToUnified(source, 'gemini-req', includeUsage)) {
    const s = Buffer.from(b).toString();
    expect(s).to.match(/^data: .*\n\n$/s);
    out.push(JSON.parse(s.slice(6)));
  }
  return out;
}

async function streamFailure(source: AsyncIterable<Uint8Array>): Promise<{ error: GatewayError; before: any[] }> {
  const before: any[] = [];
  try {
    for await (const b of geminiStreamToUnified(source, 'm', false)) before.push(JSON.parse(Buffer.from(b).toString().slice(6)));
  } catch (e) {
    expect(e).to.be.instanceOf(GatewayError);
    return { error: e as GatewayError, before };
  }
  return expect.fail('expected the stream to fail');
}

describe('vertex-ai Gemini answers', () => {
  describe('whole answers', () => {
    it('maps text, finish reason, usage, id and the model as reported', () => {
      const out = fromGeminiResponse({ ...text('Hello', 'STOP'), usageMetadata: USAGE }, 'gemini-2.0-flash');
      expect(out).to.deep.include({ id: 'chatcmpl-r1', object: 'chat.completion', model: 'gemini-2.0-flash-001', provider: 'vertex-ai' });
      expect(out.choices).to.deep.equal([{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop', logprobs: null }]);
      expect(out.usage).to.deep.equal({ prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 });
      expect(out.created).to.be.a('number');
    });

    it('maps every finish reason', () => {
      const table: [string, string][] = [
        ['STOP', 'stop'], ['MAX_TOKENS', 'length'], ['SAFETY', 'content_filter'], ['RECITATION', 'content_filter'],
        ['BLOCKLIST', 'content_filter'], ['PROHIBITED_CONTENT', 'content_filter'], ['SPII', 'content_filter'],
        ['OTHER', 'stop'], ['FINISH_REASON_UNSPECIFIED', 'stop'],
      ];
      for (const [gemini, ours] of table) {
        expect(fromGeminiResponse(text('x', gemini), 'm').choices[0]!.finish_reason, gemini).to.equal(ours);
      }
    });

    it('turns function calls into tool_calls with generated ids and finish_reason tool_calls', () => {
      const out = fromGeminiResponse({
        candidates: [{
          content: { role: 'model', parts: [
            { text: 'Let me check.' },
            { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
            { functionCall: { name: 'get_time', args: {} } },
          ] },
          finishReason: 'STOP',
        }],
      }, 'm');
      const message = out.choices[0]!.message;
      expect(message.content).to.equal('Let me check.');
      expect(message.tool_calls!.map((c) => [c.type, c.function.name, JSON.parse(c.function.arguments)])).to.deep.equal([
        ['function', 'get_weather', { city: 'Paris' }], ['function', 'get_time', {}],
      ]);
      const ids = message.tool_calls!.map((c) => c.id);
      expect(ids[0]).to.match(/^call_\w+$/);
      expect(new Set(ids).size).to.equal(2);
      expect(out.choices[0]!.finish_reason).to.equal('tool_calls');
      expect(out.model).to.equal('m');
      expect(out.id).to.match(/^chatcmpl-/);
    });

    it('skips thought parts and counts thinking tokens as completion tokens', () => {
      const out = fromGeminiResponse({
        candidates: [{ content: { parts: [{ text: 'pondering', thought: true }, { text: 'Answer' }] }, finishReason: 'STOP' }],
        usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, thoughtsTokenCount: 10, totalTokenCount: 15, cachedContentTokenCount: 1 },
      }, 'm');
      expect(out.choices[0]!.message.content).to.equal('Answer');
      expect(out.usage).to.deep.equal({
        prompt_tokens: 3, completion_tokens: 12, total_tokens: 15,
        completion_tokens_details: { reasoning_tokens: 10 }, prompt_tokens_details: { cached_tokens: 1 },
      });
    });

    it('answers a blocked prompt with content_filter and no content', () => {
      const out = fromGeminiResponse({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 } }, 'm');
      expect(out.choices).to.deep.equal([{ index: 0, message: { role: 'assistant', content: null }, finish_reason: 'content_filter', logprobs: null }]);
      expect(out.usage).to.deep.equal({ prompt_tokens: 4, completion_tokens: 0, total_tokens: 4 });
    });

    it('maps several candidates to several choices', () => {
      const out = fromGeminiResponse({
        candidates: [
          { index: 0, content: { parts: [{ text: 'a' }] }, finishReason: 'STOP' },
          { index: 1, content: { parts: [{ text: 'b' }] }, finishReason: 'MAX_TOKENS' },
        ],
      }, 'm');
      expect(out.choices.map((c) => [c.index, c.message.content, c.finish_reason])).to.deep.equal([[0, 'a', 'stop'], [1, 'b', 'length']]);
    });
  });

  describe('streams', () => {
    it('translates text events into content deltas, one finishing chunk, role first', async () => {
      const chunks = await chunksOf(bytes(sse(text('Hel'), text('lo '), { ...text('world', 'STOP'), usageMetadata: USAGE })));
      expect(chunks.map((c) => c.object)).to.deep.equal(Array(4).fill('chat.completion.chunk'));
      expect(chunks.map((c) => c.choices[0].delta)).to.deep.equal([
        { role: 'assistant', content: 'Hel' }, { content: 'lo ' }, { content: 'world' }, {},
      ]);
      expect(chunks.map((c) => c.choices[0].finish_reason)).to.deep.equal([null, null, null, 'stop']);
      expect(new Set(chunks.map((c) => c.id))).to.deep.equal(new Set(['chatcmpl-r1']));
      expect(chunks[0].model).to.equal('gemini-2.0-flash-001');
      expect(chunks[0].provider).to.equal('vertex-ai');
      for (const c of chunks) expect(c).to.not.have.property('usage');
    });

    it('adds a usage chunk with empty choices only with include_usage', async () => {
      const chunks = await chunksOf(bytes(sse(text('a'), { ...text('b', 'STOP'), usageMetadata: USAGE })), true);
      const last = chunks[chunks.length - 1];
      expect(last.choices).to.deep.equal([]);
      expect(last.usage).to.deep.equal({ prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 });
      expect(chunks.filter((c) => c.usage)).to.have.length(1);
    });

    it('parses events whatever the chunking: split mid-event, several per chunk, CRLF', async () => {
      const whole = sse(text('a'), text('b'), text('c', 'STOP'));
      const pieces: string[] = [];
      for (let i = 0; i < whole.length; i += 7) pieces.push(whole.slice(i, i + 7));
      const chunks = await chunksOf(bytes(...pieces));
      expect(chunks.map((c) => c.choices[0].delta.content ?? '').join('')).to.equal('abc');
    });

    it('streams a function call as an opening delta (id, name) and an arguments delta', async () => {
      const chunks = await chunksOf(bytes(sse({
        candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] }, finishReason: 'STOP' }],
      })));
      expect(chunks).to.have.length(3);
      const [open, args, finish] = chunks.map((c) => c.choices[0]);
      expect(open.delta.role).to.equal('assistant');
      expect(open.delta.tool_calls[0]).to.deep.include({ index: 0, type: 'function', function: { name: 'get_weather', arguments: '' } });
      expect(open.delta.tool_calls[0].id).to.match(/^call_/);
      expect(args.delta).to.deep.equal({ tool_calls: [{ index: 0, function: { arguments: '{"city":"Paris"}' } }] });
      expect(finish.finish_reason).to.equal('tool_calls');
    });

    it('finishes with content_filter on a safety stop and on a blocked prompt', async () => {
      const safety = await chunksOf(bytes(sse(text('partial'), { candidates: [{ content: { parts: [] }, finishReason: 'SAFETY' }] })));
      expect(safety[safety.length - 1].choices[0].finish_reason).to.equal('content_filter');
      const blocked = await chunksOf(bytes(sse({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 3 } })));
      expect(blocked.map((c) => c.choices[0].finish_reason)).to.deep.equal(['content_filter']);
    });

    it('keeps candidates apart by their index', async () => {
      const chunks = await chunksOf(bytes(sse(
        { candidates: [{ index: 0, content: { parts: [{ text: 'a' }] } }, { index: 1, content: { parts: [{ text: 'b' }] } }] },
        { candidates: [{ index: 0, finishReason: 'STOP' }, { index: 1, finishReason: 'MAX_TOKENS' }] },
      )));
      expect(chunks.map((c) => [c.choices[0].index, c.choices[0].delta.content ?? null, c.choices[0].finish_reason])).to.deep.equal([
        [0, 'a', null], [1, 'b', null], [0, null, 'stop'], [1, null, 'length'],
      ]);
    });

    it('throws the provider error of an error event, after the chunks already sent', async () => {
      const { error, before } = await streamFailure(bytes(sse(text('a'), { error: { code: 429, message: 'Resource exhausted.', status: 'RESOURCE_EXHAUSTED' } })));
      expect(before).to.have.length(1);
      expect(error.status).to.equal(429);
      expect(error.message).to.equal('Resource exhausted.');
      expect(error.code).to.equal('RESOURCE_EXHAUSTED');
      expect(error.provider).to.equal('vertex-ai');
    });

    it('fails a stream that ends before a finish reason, and one that is not JSON', async () => {
      expect((await streamFailure(bytes(sse(text('a'), text('b'))))).error.status).to.equal(502);
      expect((await streamFailure(bytes('data: {not json\r\n\r\n'))).error.status).to.equal(502);
    });

    it('yields the first chunk as soon as the first provider event arrives', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let secondSent = false;
      const source = (async function* () {
        yield Buffer.from(sse(text('first')));
        await gate;
        secondSent = true;
        yield Buffer.from(sse(text('second', 'STOP')));
      })();
      const iterator = geminiStreamToUnified(source, 'm', false)[Symbol.asyncIterator]();
      const first = await iterator.next();
      expect(JSON.parse(Buffer.from(first.value!).toString().slice(6)).choices[0].delta.content).to.equal('first');
      expect(secondSent).to.equal(false);
      release();
      const rest: unknown[] = [];
      for (let r = await iterator.next(); !r.done; r = await iterator.next()) rest.push(r.value);
      expect(rest).to.have.length(2);
    });
  });
});
