/**
 * The binary `application/vnd.amazon.eventstream` framing, read incrementally: frames are cut out
 * of the byte stream whatever its chunking (a frame split across chunks, several in one chunk) and
 * decoded (CRC-checked) with the maintained Smithy codec as soon as their last byte arrives.
 * A frame inside one chunk is decoded in place; only a frame that straddles chunks is copied, once.
 */
import type { EventStreamCodec } from '@smithy/eventstream-codec';
import { Errors, lazy, type GatewayError } from '../../core/index.js';
import { PROVIDER_ID } from './target.js';

/** prelude (total length, headers length, prelude CRC) + message CRC */
const MIN_FRAME = 16;
/** The event-stream format caps a message at 16 MiB. */
const MAX_FRAME = 16 * 1024 * 1024;

/** Made on the first stream: a gateway that never streams from Bedrock does not load the codec. */
const eventCodec = lazy(async () => {
  const [{ EventStreamCodec }, { fromUtf8, toUtf8 }] = await Promise.all([import('@smithy/eventstream-codec'), import('@smithy/util-utf8')]);
  return new EventStreamCodec(toUtf8, fromUtf8);
});

export type EventMessage = ReturnType<EventStreamCodec['decode']>;

/** Cuts complete frames out of chunks as they arrive. */
export class FrameSplitter {
  /** The first bytes of a frame whose length is not known yet (fewer than 4 bytes seen). */
  readonly #prelude = new Uint8Array(4);
  #preludeFilled = 0;
  /** A frame that straddles chunks, and how much of it has arrived. */
  #frame: Uint8Array | undefined;
  #frameFilled = 0;

  /** Whether bytes of an unfinished frame are held. */
  get pending(): boolean {
    return this.#preludeFilled > 0 || this.#frame !== undefined;
  }

  /** Complete frames ending in `chunk`, in order. */
  *push(chunk: Uint8Array): Generator<Uint8Array> {
    let offset = 0;
    while (offset < chunk.byteLength) {
      if (this.#frame) {
        const take = Math.min(this.#frame.byteLength - this.#frameFilled, chunk.byteLength - offset);
        this.#frame.set(chunk.subarray(offset, offset + take), this.#frameFilled);
        this.#frameFilled += take;
        offset += take;
        if (this.#frameFilled < this.#frame.byteLength) return;
        const frame = this.#frame;
        this.#frame = undefined;
        yield frame;
        continue;
      }
      if (this.#preludeFilled > 0) {
        const take = Math.min(4 - this.#preludeFilled, chunk.byteLength - offset);
        this.#prelude.set(chunk.subarray(offset, offset + take), this.#preludeFilled);
        this.#preludeFilled += take;
        offset += take;
        if (this.#preludeFilled < 4) return;
        this.#startFrame(readLength(this.#prelude, 0), this.#prelude);
        this.#preludeFilled = 0;
        continue;
      }
      const left = chunk.byteLength - offset;
      if (left < 4) {
        this.#prelude.set(chunk.subarray(offset), 0);
        this.#preludeFilled = left;
        return;
      }
      const length = readLength(chunk, offset);
      if (left >= length) {
        checkLength(length);
        yield chunk.subarray(offset, offset + length);
        offset += length;
        continue;
      }
      this.#startFrame(length, chunk.subarray(offset));
      offset = chunk.byteLength;
    }
  }

  #startFrame(length: number, head: Uint8Array): void {
    checkLength(length);
    this.#frame = new Uint8Array(length);
    this.#frame.set(head, 0);
    this.#frameFilled = head.byteLength;
  }
}

function readLength(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset]! << 24) >>> 0) + (bytes[offset + 1]! << 16) + (bytes[offset + 2]! << 8) + bytes[offset + 3]!;
}

function checkLength(length: number): void {
  if (length < MIN_FRAME || length > MAX_FRAME) throw malformed(`not an event-stream frame (length ${length})`);
}

/** Bytes that are not the provider's protocol: a 502, as for any answer that is not the protocol. */
function malformed(reason: string): GatewayError {
  return Errors.badGateway(`provider ${PROVIDER_ID} sent a malformed event stream: ${reason}`, PROVIDER_ID);
}

function decode(codec: EventStreamCodec, frame: Uint8Array): EventMessage {
  try {
    return codec.decode(frame);
  } catch (e) {
    throw malformed((e as Error).message);
  }
}

/** Decoded event-stream messages of a byte stream; a 502 GatewayError when it ends inside a frame or a frame is corrupt. */
export async function* eventStreamMessages(source: AsyncIterable<Uint8Array>): AsyncGenerator<EventMessage> {
  const splitter = new FrameSplitter();
  const codec = eventCodec.loaded ?? await eventCodec();
  for await (const chunk of source) {
    for (const frame of splitter.push(chunk)) yield decode(codec, frame);
  }
  if (splitter.pending) throw malformed('it ended inside a frame');
}

/** A string header of a message (`:event-type`, `:message-type` ...). */
export function headerString(message: EventMessage, name: string): string | undefined {
  const header = message.headers[name];
  return header && header.type === 'string' ? header.value : undefined;
}

const decoder = new TextDecoder();

/** The JSON payload of a message. */
export function payloadJson(message: EventMessage): unknown {
  return message.body.byteLength === 0 ? {} : JSON.parse(decoder.decode(message.body));
}
