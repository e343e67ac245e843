/** SSE pass-through guard: [DONE] added after a final chunk, one error event (no [DONE]) on failure or cut, first-byte prefetch. */
import { expect } from 'chai';
import { guardSseStream, parseSse, prefetchFirst, StreamCutError, StreamErrorEvent } from '../../core/index.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

async function collect(source: AsyncIterable<Uint8Array>): Promise<string> {
  let out = '';
  for await (const chunk of source) out += dec.decode(chunk);
  return out;
}

async function* chunks(parts: string[], failAfter?: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < parts.length; i++) {
    if (failAfter === i) throw new Error('socket closed');
    yield enc.encode(parts[i]!);
  }
  if (failAfter === parts.length) throw new Error('socket closed');
}

describe('guardSseStream', () => {
  const onError = () => ({ error: { message: 'cut' } });

  it('passes a complete stream through unchanged', async () => {
    const parts = ['data: {"a":1}\n\n', 'data: [DONE]\n\n'];
    expect(await collect(guardSseStream(chunks(parts), onError))).to.equal(parts.join(''));
  });

  it('adds [DONE] when the upstream ended without it after a final chunk', async () => {
    const finish = 'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}';
    expect(await collect(guardSseStream(chunks([`${finish}\n\n`]), onError))).to.equal(`${finish}\n\ndata: [DONE]\n\n`);
    expect(await collect(guardSseStream(chunks([`${finish}\n`]), onError))).to.equal(`${finish}\n\ndata: [DONE]\n\n`);
    const usage = 'data: {"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}\r\n\r\n';
    expect(await collect(guardSseStream(chunks([`${finish}\n\n`, usage]), onError))).to.equal(`${finish}\n\n${usage}data: [DONE]\n\n`);
  });

  it('reads a final chunk split across reads', async () => {
    const parts = ['data: {"choices":[{"index":0,"delta":{},', '"finish_reason":', '"stop"}]}\n\n'];
    expect(await collect(guardSseStream(chunks(parts), onError))).to.equal(`${parts.join('')}data: [DONE]\n\n`);
  });

  it('ends a stream that stopped without its end marker with one error event and no [DONE]', async () => {
    const errors: unknown[] = [];
    const record = (e: unknown) => (errors.push(e), { error: { message: 'cut' } });
    // The parts, and what closes the event they stopped in before the error event.
    const cases: [string[], string][] = [
      [['data: {"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}\n\n'], ''],
      [['data: {"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}\n'], '\n'],
      [['data: {"choices":[{"index":0,"delta":{},"finish_reason":"st'], '\n\n'],
      [['data: {"choices":[],"usage":null}\n\n'], ''],
      [['data: not json\n\n'], ''],
      [[], ''],
    ];
    for (const [parts, close] of cases) {
      const out = await collect(guardSseStream(chunks(parts), record));
      expect(out, parts.join('')).to.equal(`${parts.join('')}${close}data: {"error":{"message":"cut"}}\n\n`);
    }
    expect(errors).to.have.length(cases.length);
    for (const e of errors) expect(e).to.be.instanceOf(StreamCutError);
  });

  it('adds nothing to a stream that ends with the upstream\'s own error event, and reports it', async () => {
    const errors: unknown[] = [];
    const parts = ['data: {"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}\n\n', 'data: {"error":{"message":"overloaded"}}\n\n'];
    const out = await collect(guardSseStream(chunks(parts), (e) => (errors.push(e), { error: { message: 'cut' } })));
    expect(out).to.equal(parts.join(''));
    expect(errors).to.have.length(1);
    expect(errors[0]).to.be.instanceOf(StreamErrorEvent);
    expect((errors[0] as StreamErrorEvent).data).to.equal('{"error":{"message":"overloaded"}}');
  });

  it('ends a failed stream with one error event after a complete event boundary, and no [DONE]', async () => {
    const out = await collect(guardSseStream(chunks(['data: {"a":1}\n\n', 'data: {"b"'], 2), onError));
    expect(out).to.equal('data: {"a":1}\n\ndata: {"b"\n\ndata: {"error":{"message":"cut"}}\n\n');
    expect(out).not.to.contain('[DONE]');
  });

  it('recognises [DONE] split across chunks', async () => {
    expect(await collect(guardSseStream(chunks(['data: {"a":1}\n\ndata: [DO', 'NE]\n\n']), onError))).to.equal('data: {"a":1}\n\ndata: [DONE]\n\n');
  });
});

describe('prefetchFirst', () => {
  it('rejects when the stream fails before its first chunk', async () => {
    let failed = false;
    await prefetchFirst(chunks(['x'], 0)).catch(() => (failed = true));
    expect(failed).to.equal(true);
  });

  it('rejects a stream that ends before its first chunk as cut', async () => {
    let failure: unknown;
    await prefetchFirst(chunks([])).catch((e: unknown) => (failure = e));
    expect(failure).to.be.instanceOf(StreamCutError);
  });

  it('replays the first chunk, then the rest', async () => {
    expect(await collect(await prefetchFirst(chunks(['a', 'b', 'c'])))).to.equal('abc');
  });
});

describe('parseSse', () => {
  async function events(parts: string[]) {
    const out = [];
    for await (const e of parseSse(chunks(parts))) out.push(e);
    return out;
  }

  it('parses events split across chunks, several per chunk, with CRLF and comments', async () => {
    expect(await events(['event: message_start\r\ndata: {"a"', ':1}\r\n\r\n: ping\n\ndata: x\ndata: y\n\nevent: e2\ndata: z\n\n'])).to.deep.equal([
      { event: 'message_start', data: '{"a":1}' },
      { event: undefined, data: 'x\ny' },
      { event: 'e2', data: 'z' },
    ]);
  });

  it('yields a last event that lacks its blank line', async () => {
    expect(await events(['data: tail'])).to.deep.equal([{ event: undefined, data: 'tail' }]);
  });

  it('decodes multi-byte characters split across chunks', async () => {
    const bytes = enc.encode('data: héllo\n\n');
    const source = (async function* () {
      yield bytes.slice(0, 8);
      yield bytes.slice(8);
    })();
    const out = [];
    for await (const e of parseSse(source)) out.push(e.data);
    expect(out).to.deep.equal(['héllo']);
  });
});
