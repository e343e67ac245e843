/**
 * Server-sent-event helpers shared by adapters and plugins (the kernel itself never parses SSE).
 */
const encoder = new TextEncoder();
const DONE = encoder.encode('data: [DONE]\n\n');

export function sseData(value: unknown): Uint8Array {
  return encoder.encode(`data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`);
}

export const SSE_DONE = DONE;

export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
});

/**
 * Passes an OpenAI-format event stream through chunk by chunk and guarantees its ending:
 * `data: [DONE]` when the upstream forgot it, or, when the upstream fails mid-stream, one
 * `data: {"error":...}` event and no `[DONE]` (a client must not mistake a cut stream for a whole one).
 */
export async function* guardSseStream(
  source: AsyncIterable<Uint8Array>,
  onError: (e: unknown) => unknown,
): AsyncGenerator<Uint8Array> {
  let tail = '';
  try {
    for await (const chunk of source) {
      if (chunk.byteLength === 0) continue;
      tail = (tail + latin1Tail(chunk)).slice(-32);
      yield chunk;
    }
  } catch (e) {
    const separator = tail === '' || tail.endsWith('\n\n') ? '' : tail.endsWith('\n') ? '\n' : '\n\n';
    yield encoder.encode(`${separator}data: ${JSON.stringify(onError(e))}\n\n`);
    return;
  }
  if (!/data: ?\[DONE\]\s*$/.test(tail)) {
    const separator = tail === '' || tail.endsWith('\n\n') ? '' : tail.endsWith('\n') ? '\n' : '\n\n';
    yield separator ? encoder.encode(separator + 'data: [DONE]\n\n') : DONE;
  }
}

function latin1Tail(chunk: Uint8Array): string {
  const start = Math.max(0, chunk.byteLength - 32);
  let s = '';
  for (let i = start; i < chunk.byteLength; i++) s += String.fromCharCode(chunk[i]!);
  return s;
}

/** Reads the first chunk so that a stream failing before its first byte fails as a whole (and can fall back). */
export async function prefetchFirst(source: AsyncIterable<Uint8Array>): Promise<AsyncIterable<Uint8Array>> {
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  return {
    [Symbol.asyncIterator]() {
      let sentFirst = false;
      return {
        next() {
          if (!sentFirst) {
            sentFirst = true;
            return Promise.resolve(first);
          }
          return iterator.next();
        },
        return(value?: unknown) {
          return iterator.return ? iterator.return(value) : Promise.resolve({ done: true as const, value: undefined });
        },
      };
    },
  };
}
