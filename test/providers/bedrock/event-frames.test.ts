/** The incremental event-stream framing: frames cut out of any chunking, CRC-checked, never misread. */
import { expect } from 'chai';
import { eventStreamMessages, FrameSplitter, headerString, payloadJson, type EventMessage } from '../../../providers/bedrock/event-frames.js';
import { eventFrame, exceptionFrame } from '../../fixtures/mock-bedrock.js';

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

async function* fromChunks(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const c of chunks) yield c;
}

async function decodeAll(chunks: Uint8Array[]): Promise<EventMessage[]> {
  const out: EventMessage[] = [];
  for await (const m of eventStreamMessages(fromChunks(chunks))) out.push(m);
  return out;
}

function summary(messages: EventMessage[]): string[] {
  return messages.map((m) => `${headerString(m, ':message-type')}/${headerString(m, ':event-type') ?? headerString(m, ':exception-type')}:${JSON.stringify(payloadJson(m))}`);
}

describe('bedrock event-stream frames', () => {
  const frames = [
    eventFrame('messageStart', { role: 'assistant' }),
    eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'héllo ✓' } }),
    eventFrame('contentBlockStop', { contentBlockIndex: 0 }),
    exceptionFrame('throttlingException', 'slow down'),
  ];
  const wire = concat(frames);

  it('decodes several frames from one chunk, with their headers and JSON payloads', async () => {
    const messages = await decodeAll([wire]);
    expect(messages).to.have.length(4);
    expect(headerString(messages[0]!, ':event-type')).to.equal('messageStart');
    expect(headerString(messages[0]!, ':content-type')).to.equal('application/json');
    expect(headerString(messages[0]!, ':message-type')).to.equal('event');
    expect((payloadJson(messages[1]!) as { delta: { text: string } }).delta.text).to.equal('héllo ✓');
    expect(headerString(messages[3]!, ':exception-type')).to.equal('throttlingException');
  });

  it('decodes the same frames whatever the split: at every byte boundary, into two chunks', async () => {
    const expected = summary(await decodeAll([wire]));
    for (let cut = 1; cut < wire.byteLength; cut++) {
      const got = summary(await decodeAll([wire.subarray(0, cut), wire.subarray(cut)]));
      expect(got, `cut at byte ${cut}`).to.deep.equal(expected);
    }
  });

  it('decodes the same frames fed one byte at a time, and in three uneven pieces at every pair of cuts', async () => {
    const expected = summary(await decodeAll([wire]));
    const bytes = Array.from({ length: wire.byteLength }, (_, i) => wire.subarray(i, i + 1));
    expect(summary(await decodeAll(bytes))).to.deep.equal(expected);
    const short = concat(frames.slice(0, 2));
    const shortExpected = expected.slice(0, 2);
    for (let a = 1; a < short.byteLength - 1; a++) {
      for (let b = a + 1; b < short.byteLength; b += 7) {
        expect(summary(await decodeAll([short.subarray(0, a), short.subarray(a, b), short.subarray(b)]))).to.deep.equal(shortExpected);
      }
    }
  });

  it('yields each frame as soon as its last byte arrives, not at the end of the chunk run', () => {
    const splitter = new FrameSplitter();
    const first = frames[0]!;
    expect([...splitter.push(first.subarray(0, first.byteLength - 1))]).to.have.length(0);
    expect(splitter.pending).to.equal(true);
    const out = [...splitter.push(concat([first.subarray(first.byteLength - 1), frames[1]!.subarray(0, 3)]))];
    expect(out).to.have.length(1);
    expect(out[0]).to.deep.equal(first);
    expect(splitter.pending).to.equal(true);
  });

  it('decodes a frame inside one chunk in place (no copy) and copies a straddling frame once', () => {
    const splitter = new FrameSplitter();
    const [inPlace] = [...splitter.push(wire)];
    expect(inPlace!.buffer).to.equal(wire.buffer);
    const [copied] = [...splitter.push(frames[0]!.subarray(0, 5)), ...splitter.push(frames[0]!.subarray(5))];
    expect(copied!.buffer).to.not.equal(frames[0]!.buffer);
  });

  it('fails on a stream that ends inside a frame', async () => {
    const error = await decodeAll([wire.subarray(0, wire.byteLength - 3)]).then(() => undefined, (e: Error) => e);
    expect(error?.message).to.equal('provider bedrock sent a malformed event stream: it ended inside a frame');
    expect((error as { status?: number }).status).to.equal(502);
    const tiny = await decodeAll([wire.subarray(0, 2)]).then(() => undefined, (e: Error) => e);
    expect(tiny?.message).to.match(/ended inside a frame/);
  });

  it('fails on a corrupted frame (CRC) and on bytes that are not event-stream framing', async () => {
    const corrupt = wire.slice();
    corrupt[20] = corrupt[20]! ^ 0xff;
    const crc = await decodeAll([corrupt]).then(() => undefined, (e: Error) => e);
    expect(crc?.message).to.match(/checksum/i);
    const json = new TextEncoder().encode('{"message":"not a frame"}');
    const notFrames = await decodeAll([json]).then(() => undefined, (e: Error) => e);
    expect(notFrames?.message).to.match(/not an event-stream frame/);
  });
});
