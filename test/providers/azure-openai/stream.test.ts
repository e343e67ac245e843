/** Dropping Azure's leading prompt-filter annotation event, and nothing else, from a stream. */
import { expect } from 'chai';
import { dropPromptFilterHead } from '../../../providers/azure-openai/stream.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const FILTER = 'data: {"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"prompt_index":0,"content_filter_results":{}}]}\n\n';
const CHUNK = (text: string) => `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"${text}"},"finish_reason":null}]}\n\n`;
const DONE = 'data: [DONE]\n\n';

async function* source(pieces: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const p of pieces) yield typeof p === 'string' ? encoder.encode(p) : p;
}

async function run(pieces: (string | Uint8Array)[]): Promise<{ text: string; chunks: Uint8Array[] }> {
  const chunks: Uint8Array[] = [];
  for await (const c of dropPromptFilterHead(source(pieces))) chunks.push(c);
  return { text: chunks.map((c) => decoder.decode(c)).join(''), chunks };
}

describe('azure-openai: prompt-filter head', () => {
  it('drops the leading annotation event and passes the rest', async () => {
    const { text } = await run([FILTER, CHUNK('a'), CHUNK('b'), DONE]);
    expect(text).to.equal(CHUNK('a') + CHUNK('b') + DONE);
  });

  it('finds the event whatever the chunking (split mid-event, several per chunk, CRLF)', async () => {
    const all = FILTER + CHUNK('x') + DONE;
    const bytes = encoder.encode(all);
    const oneByOne = Array.from(bytes, (b) => Uint8Array.of(b));
    expect((await run(oneByOne)).text).to.equal(CHUNK('x') + DONE);
    expect((await run([all])).text).to.equal(CHUNK('x') + DONE);
    const crlf = FILTER.replace(/\n/g, '\r\n');
    expect((await run([crlf, CHUNK('y')])).text).to.equal(CHUNK('y'));
  });

  it('passes later chunks through as the very same byte arrays', async () => {
    const later = encoder.encode(CHUNK('z'));
    const { chunks } = await run([FILTER + CHUNK('a'), later]);
    expect(chunks[chunks.length - 1]).to.equal(later);
  });

  it('leaves a stream without the annotation untouched, and keeps a choices:[] usage chunk at the end', async () => {
    const usage = 'data: {"id":"c","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":1}}\n\n';
    expect((await run([CHUNK('a'), usage, DONE])).text).to.equal(CHUNK('a') + usage + DONE);
  });

  it('releases the upstream when the consumer stops early', async () => {
    let released = false;
    async function* upstream(): AsyncGenerator<Uint8Array> {
      try {
        yield encoder.encode(FILTER + CHUNK('a'));
        yield encoder.encode(CHUNK('b'));
      } finally {
        released = true;
      }
    }
    for await (const _ of dropPromptFilterHead(upstream())) break;
    expect(released).to.equal(true);
  });
});
