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

export interface SseEvent {
  /** The `event:` field, when the stream names events (Anthropic does, OpenAI does not). */
  event?: string;
  /** The `data:` lines joined with "\n". */
  data: string;
}

/**
 * Incremental server-sent-events parser: yields each event as soon as its blank line arrives,
 * whatever the chunking (events split across chunks, several per chunk, CRLF or LF line ends).
 * Comment lines (`:` ping) and `id:`/`retry:` fields are ignored.
 */
export async function* parseSse(source: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  const parser = new SseLineParser();
  for await (const chunk of source) {
    const events = parser.push(decoder.decode(chunk, { stream: true }));
    for (let i = 0; i < events.length; i++) yield events[i]!;
  }
  const tail = parser.push(decoder.decode() + '\n\n');
  for (let i = 0; i < tail.length; i++) yield tail[i]!;
}

/** The line state machine behind parseSse: plain loops, one array of events per chunk. */
class SseLineParser {
  #buffer = '';
  #event: string | undefined;
  #data: string[] = [];

  push(text: string): SseEvent[] {
    const out: SseEvent[] = [];
    const buffer = this.#buffer + text;
    let start = 0;
    for (;;) {
      const nl = buffer.indexOf('\n', start);
      if (nl === -1) break;
      const end = nl > start && buffer.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      this.#line(buffer.slice(start, end), out);
      start = nl + 1;
    }
    this.#buffer = buffer.slice(start);
    return out;
  }

  #line(line: string, out: SseEvent[]): void {
    if (line === '') {
      if (this.#data.length > 0) out.push({ event: this.#event, data: this.#data.join('\n') });
      this.#event = undefined;
      this.#data = [];
      return;
    }
    if (line.charCodeAt(0) === 58 /* ':' comment */) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
  }
}

/** Serialises unified chunk objects as SSE bytes, one event each; the guard adds `[DONE]`. */
export async function* toSse(chunks: AsyncIterable<unknown>): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) yield sseData(chunk);
}
