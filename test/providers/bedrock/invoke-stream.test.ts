/** InvokeModelWithResponseStream `chunk` frames → Anthropic Messages SSE events, and which model ids are Claude. */
import { expect } from 'chai';
import { GatewayError } from '../../../core/index.js';
import { isBedrockClaude } from '../../../providers/bedrock/claude-model.js';
import { invokeStreamToMessagesSse } from '../../../providers/bedrock/invoke-stream.js';
import { chunkFrame, claudeEvents } from '../../fixtures/bedrock-claude-wire.js';
import { eventFrame, exceptionFrame } from '../../fixtures/mock-bedrock.js';

const BODY = { anthropic_version: 'bedrock-2023-05-31', max_tokens: 64, messages: [{ role: 'user', content: 'hi you' }] };
const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';

async function* fromChunks(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const c of chunks) yield c;
}

async function read(chunks: Uint8Array[]): Promise<string[]> {
  const out: string[] = [];
  for await (const bytes of invokeStreamToMessagesSse(fromChunks(chunks))) out.push(new TextDecoder().decode(bytes));
  return out;
}

async function failure(chunks: Uint8Array[]): Promise<{ error: unknown; before: string[] }> {
  const before: string[] = [];
  try {
    for await (const bytes of invokeStreamToMessagesSse(fromChunks(chunks))) before.push(new TextDecoder().decode(bytes));
  } catch (error) {
    return { error, before };
  }
  return expect.fail('expected the stream to fail');
}

describe('provider.bedrock invoke-stream (Claude event stream → Messages SSE)', () => {
  it('turns every chunk frame into one `event:` + `data:` SSE event, in order', async () => {
    const events = claudeEvents(BODY, MODEL, 1);
    const out = await read(events.map(chunkFrame));
    expect(out).to.have.length(events.length);
    out.forEach((text, i) => {
      expect(text).to.equal(`event: ${String(events[i]!['type'])}\ndata: ${JSON.stringify(events[i])}\n\n`);
    });
  });

  it('yields each event as its frame completes, whatever the chunking', async () => {
    const frames = claudeEvents(BODY, MODEL, 1).map(chunkFrame);
    const all = Buffer.concat(frames);
    // Cut every 7 bytes: frames straddle chunks; nothing is held back once a frame is whole.
    const pieces: Uint8Array[] = [];
    for (let i = 0; i < all.length; i += 7) pieces.push(new Uint8Array(all.subarray(i, i + 7)));
    const out = await read(pieces);
    expect(out.map((t) => /^event: (\w+)/.exec(t)![1])).to.deep.equal(claudeEvents(BODY, MODEL, 1).map((e) => e['type']));

    let yielded = 0;
    const gen = invokeStreamToMessagesSse((async function* () {
      yield frames[0]!;
      // The first event must be out before the source goes on.
      expect(yielded).to.equal(1);
      yield frames[1]!;
    })());
    for await (const _ of gen) yielded++;
    expect(yielded).to.equal(2);
  });

  it('throws an exception frame as the Bedrock error it names, after the events before it', async () => {
    const frames = claudeEvents(BODY, MODEL, 1).map(chunkFrame);
    const { error, before } = await failure([frames[0]!, frames[1]!, exceptionFrame('throttlingException', 'Too many requests.')]);
    expect(before).to.have.length(2);
    expect(error).to.be.instanceOf(GatewayError);
    expect((error as GatewayError).status).to.equal(429);
    expect((error as GatewayError).message).to.equal('Too many requests.');
  });

  it('refuses chunks that are not Messages events with a 502', async () => {
    for (const frame of [eventFrame('chunk', { nothing: true }), eventFrame('chunk', { bytes: Buffer.from('not json').toString('base64') }),
      eventFrame('chunk', { bytes: Buffer.from('{"no":"type"}').toString('base64') })]) {
      const { error } = await failure([frame]);
      expect((error as GatewayError).status).to.equal(502);
      expect((error as GatewayError).provider).to.equal('bedrock');
    }
  });

  it('skips event types it does not know', async () => {
    const out = await read([eventFrame('somethingNew', { x: 1 }), chunkFrame({ type: 'message_stop' })]);
    expect(out).to.deep.equal(['event: message_stop\ndata: {"type":"message_stop"}\n\n']);
  });

  it('tells Claude model ids (plain, inference profiles, ARNs) from other Bedrock models', () => {
    for (const id of [MODEL, 'us.anthropic.claude-sonnet-4-20250514-v1:0', 'global.anthropic.claude-sonnet-4-5-20250929-v1:0',
      'us-gov.anthropic.claude-3-haiku-20240307-v1:0', 'arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-3-haiku-20240307-v1:0']) {
      expect(isBedrockClaude(id), id).to.equal(true);
    }
    for (const id of ['amazon.nova-lite-v1:0', 'meta.llama3-8b-instruct-v1:0', 'anthropic.titan', 'xanthropic.claude-3', 'claude-3-haiku', 42, undefined]) {
      expect(isBedrockClaude(id), String(id)).to.equal(false);
    }
  });
});
