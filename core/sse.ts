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

/** What a stream that ended without its end marker fails with: it was cut, however cleanly its connection closed. */
export class StreamCutError extends Error {
  constructor() {
    super('stream ended before its end marker ([DONE] or a final finish_reason)');
    this.name = 'StreamCutError';
  }
}

/** A stream whose last event is the upstream's own error event (`data: {"error":...}`); `data` is that event's data. */
export class StreamErrorEvent extends Error {
  constructor(readonly data: string) {
    super('stream ended with an error event');
    this.name = 'StreamErrorEvent';
  }
}

/** The trailing chunks kept to read a stream's last event: the event, and two more for one split across reads. */
const LAST_CHUNKS = 3;

/**
 * Passes an OpenAI-format event stream through chunk by chunk and guarantees its ending. A stream
 * is whole when it ends with `data: [DONE]`, or with a last chunk that carries a finish_reason or
 * is the usage chunk (then `[DONE]` is added). Any other end, the clean close of a connection
 * without framing included, is a cut: like a failure mid-stream it ends with one
 * `data: {"error":...}` event and no `[DONE]`, so that no client mistakes it for a whole one.
 *
 * `onError` is called once when the stream fails (its error), is cut (a StreamCutError) or ends with
 * the upstream's own error event (a StreamErrorEvent); it returns the envelope of the error event
 * to write, except for a StreamErrorEvent: that stream already ends with one, nothing is added.
 */
export async function* guardSseStream(
  source: AsyncIterable<Uint8Array>,
  onError: (e: unknown) => unknown,
): AsyncGenerator<Uint8Array> {
  let tail = '';
  const last: Uint8Array[] = [];
  try {
    for await (const chunk of source) {
      if (chunk.byteLength === 0) continue;
      tail = (tail + latin1Tail(chunk)).slice(-32);
      if (last.length === LAST_CHUNKS) last.shift();
      last.push(chunk);
      yield chunk;
    }
  } catch (e) {
    yield errorEvent(tail, onError(e));
    return;
  }
  if (/data: ?\[DONE\]\s*$/.test(tail)) return;
  const ending = lastEventOf(last);
  if (ending === 'final') {
    const separator = separatorAfter(tail);
    yield separator ? encoder.encode(separator + 'data: [DONE]\n\n') : DONE;
  } else if (ending === 'cut') {
    yield errorEvent(tail, onError(new StreamCutError()));
  } else {
    onError(new StreamErrorEvent(ending.error));
  }
}

/** The error event, after what is needed to close the event the stream stopped in. */
function errorEvent(tail: string, envelope: unknown): Uint8Array {
  return encoder.encode(`${separatorAfter(tail)}data: ${JSON.stringify(envelope)}\n\n`);
}

function separatorAfter(tail: string): string {
  if (tail === '' || tail.endsWith('\n\n') || tail.endsWith('\r\n\r\n')) return '';
  return tail.endsWith('\n') ? '\n' : '\n\n';
}

/**
 * What the last event of a stream says: `final` for a chunk only an ending stream sends (one with a
 * finish_reason, or the usage chunk), the data of an error event, or `cut` for anything else (a
 * content chunk, an event split or not JSON, no event at all). Read once, when the stream ends.
 */
function lastEventOf(last: readonly Uint8Array[]): 'final' | 'cut' | { error: string } {
  if (last.length === 0) return 'cut';
  const decoder = new TextDecoder();
  let text = '';
  for (const chunk of last) text += decoder.decode(chunk, { stream: true });
  text = (text + decoder.decode()).replace(/\r\n?/g, '\n').trimEnd();
  let data = '';
  for (const line of text.slice(text.lastIndexOf('\n\n') + 1).split('\n')) {
    if (line.startsWith('data:')) data += (data ? '\n' : '') + line.slice(line.startsWith('data: ') ? 6 : 5);
  }
  let event: { choices?: unknown; usage?: unknown; error?: unknown } | null;
  try {
    event = JSON.parse(data) as typeof event;
  } catch {
    return 'cut';
  }
  if (typeof event?.error === 'object' && event.error !== null) return { error: data };
  const choices = event?.choices;
  if (!Array.isArray(choices)) return 'cut';
  if (choices.length === 0) return typeof event!.usage === 'object' && event!.usage !== null ? 'final' : 'cut';
  return choices.some((c) => typeof (c as { finish_reason?: unknown } | null)?.finish_reason === 'string') ? 'final' : 'cut';
}

function latin1Tail(chunk: Uint8Array): string {
  const start = Math.max(0, chunk.byteLength - 32);
  let s = '';
  for (let i = start; i < chunk.byteLength; i++) s += String.fromCharCode(chunk[i]!);
  return s;
}

/**
 * Reads the first chunk so that a stream failing before its first byte fails as a whole (and can
 * fall back); one that ends before any byte was cut just as much (a StreamCutError).
 */
export async function prefetchFirst(source: AsyncIterable<Uint8Array>): Promise<AsyncIterable<Uint8Array>> {
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) throw new StreamCutError();
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

/** The last whole event of a stream: its type (the `event:` line, else its data's `type`), its data, and the data parsed. */
export interface LastEvent {
  type: string | undefined;
  data: string;
  /** The data as JSON; undefined when it is not JSON. */
  json: unknown;
}

/** How a stream in another event format than OpenAI's ends (Messages, image and audio events ...). */
export interface EventStreamEnding {
  /** Whole, the upstream's own error (its data), or cut; `last` is undefined when the stream ends inside an event or has none. */
  judge(last: LastEvent | undefined): 'whole' | 'cut' | { error: string };
  /** The SSE text of the event telling the client the stream failed, from onError's envelope. */
  errorEvent(envelope: unknown): string;
}

/** The stream's last characters kept to read its last event (an image event is large: its end is enough). */
const EVENT_TAIL_CHARS = 64 * 1024;

/**
 * guardSseStream for other event formats: chunks pass as they come; a stream the ending's `judge`
 * does not find whole ends with one error event of its format (after what closes the event it
 * stopped in), and one whose last event is the upstream's own error gets nothing more (onError
 * hears of it as a StreamErrorEvent).
 */
export async function* guardEventStream(
  source: AsyncIterable<Uint8Array>, onError: (e: unknown) => unknown, ending: EventStreamEnding,
): AsyncGenerator<Uint8Array> {
  const decoder = new TextDecoder();
  let tail = '';
  try {
    for await (const chunk of source) {
      if (chunk.byteLength === 0) continue;
      tail += decoder.decode(chunk, { stream: true });
      if (tail.length > 2 * EVENT_TAIL_CHARS) tail = tail.slice(-EVENT_TAIL_CHARS);
      yield chunk;
    }
  } catch (e) {
    yield encoder.encode(separatorAfter(tail) + ending.errorEvent(onError(e)));
    return;
  }
  tail = (tail + decoder.decode()).replace(/\r\n?/g, '\n');
  const verdict = ending.judge(lastEventIn(tail));
  if (verdict === 'whole') return;
  if (verdict !== 'cut') {
    onError(new StreamErrorEvent(verdict.error));
    return;
  }
  yield encoder.encode(separatorAfter(tail) + ending.errorEvent(onError(new StreamCutError())));
}

/** The last event of a stream's text (line ends already `\n`); undefined when the text stops inside one. */
function lastEventIn(tail: string): LastEvent | undefined {
  if (!tail.endsWith('\n\n')) return undefined;
  const text = tail.trimEnd();
  let type: string | undefined;
  let data = '';
  for (const line of text.slice(text.lastIndexOf('\n\n') + 1).split('\n')) {
    if (line.startsWith('event:')) type = line.slice(6).trim();
    else if (line.startsWith('data:')) data += (data ? '\n' : '') + line.slice(line.startsWith('data: ') ? 6 : 5);
  }
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    json = undefined;
  }
  const dataType = (json as { type?: unknown } | null | undefined)?.type;
  return { type: type ?? (typeof dataType === 'string' ? dataType : undefined), data, json };
}
