/**
 * Records a streamed answer as it passes through: every chunk goes on to the client at once (no
 * delay, no extra buffering on the way), a reference to it is kept aside. The recording is usable
 * only when the stream ended normally, within the size cap; a stream cut by the provider, the
 * client or a time-out is never usable.
 */

export interface Recording {
  /** The stream to hand on in place of the source. */
  readonly stream: AsyncIterable<Uint8Array>;
  /** The whole stream's bytes, once it ended normally (undefined otherwise). */
  bytes(): Uint8Array | undefined;
}

export function recordStream(source: AsyncIterable<Uint8Array>, maxBytes: number): Recording {
  let chunks: Uint8Array[] | undefined = [];
  let size = 0;
  let ended = false;

  async function* pass(): AsyncGenerator<Uint8Array> {
    let finished = false;
    try {
      for await (const chunk of source) {
        if (chunks) {
          size += chunk.byteLength;
          if (size > maxBytes) chunks = undefined; // too large to store: stop keeping copies
          else chunks.push(chunk);
        }
        yield chunk;
      }
      finished = true;
    } finally {
      ended = finished;
      if (!finished) chunks = undefined;
    }
  }

  return {
    stream: pass(),
    bytes: () => (ended && chunks ? Buffer.concat(chunks, size) : undefined),
  };
}
