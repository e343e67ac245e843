/**
 * A wire-level Messages API client for the tests that check exact bodies and event sequences (ping
 * included, which the SDK hides), reading the wire as the official `@anthropic-ai/sdk` does: `x-api-key` and `anthropic-version` on every
 * request; a non-2xx answer is an error carrying the status and the parsed body; a stream is read
 * by its `event:` names (message_start, content_block_*, message_delta, message_stop; `ping` skipped;
 * an `error` event throws) and accumulated into the final Message as the SDK's MessageStream does
 * (text and thinking deltas appended, input_json_delta joined and parsed at the end). A stream that
 * ends without message_stop throws: it was cut.
 */
import { parseSse } from '../../../../core/index.js';

type Obj = Record<string, any>;

export class MessagesApiError extends Error {
  constructor(readonly status: number | undefined, readonly body: Obj | undefined, readonly headers?: Headers) {
    super(`${status ?? 'stream'} ${JSON.stringify(body)}`);
  }
}

export interface StreamResult {
  /** Every event as received, ping included, in order. */
  events: { event: string; data: Obj }[];
  /** The Message the events add up to. */
  message: Obj;
  headers: Headers;
}

export interface MessagesClient {
  create(body: Obj): Promise<{ message: Obj; headers: Headers; status: number }>;
  stream(body: Obj): Promise<StreamResult>;
  countTokens(body: Obj): Promise<{ input_tokens: number; headers: Headers }>;
}

export function messagesClient(baseURL: string, defaultHeaders: Record<string, string>): MessagesClient {
  const post = (path: string, body: Obj) => fetch(`${baseURL}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-client', 'anthropic-version': '2023-06-01', ...defaultHeaders },
    body: JSON.stringify(body),
  });
  const failed = async (res: Response) => {
    const text = await res.text();
    let parsed: Obj | undefined;
    try {
      parsed = JSON.parse(text) as Obj;
    } catch {
      parsed = { raw: text };
    }
    return new MessagesApiError(res.status, parsed, res.headers);
  };
  return {
    async create(body) {
      const res = await post('/v1/messages', body);
      if (!res.ok) throw await failed(res);
      return { message: (await res.json()) as Obj, headers: res.headers, status: res.status };
    },
    async stream(body) {
      const res = await post('/v1/messages', { ...body, stream: true });
      if (!res.ok) throw await failed(res);
      const events: StreamResult['events'] = [];
      const acc = new Accumulator();
      for await (const sse of parseSse(res.body as AsyncIterable<Uint8Array>)) {
        const data = JSON.parse(sse.data) as Obj;
        events.push({ event: sse.event ?? '', data });
        if (sse.event === 'error') {
          const error = new MessagesApiError(undefined, data, res.headers) as MessagesApiError & { events?: unknown };
          error.events = events;
          throw error;
        }
        acc.add(sse.event, data);
      }
      return { events, message: acc.final(), headers: res.headers };
    },
    async countTokens(body) {
      const res = await post('/v1/messages/count_tokens', body);
      if (!res.ok) throw await failed(res);
      return { ...((await res.json()) as { input_tokens: number }), headers: res.headers };
    },
  };
}

class Accumulator {
  #message: Obj | undefined;
  #json = new Map<number, string>();
  #stopped = false;

  add(event: string | undefined, data: Obj): void {
    switch (event) {
      case 'message_start':
        this.#message = structuredClone(data['message']);
        break;
      case 'content_block_start':
        this.#need().content[data['index']] = structuredClone(data['content_block']);
        break;
      case 'content_block_delta': {
        const block = this.#need().content[data['index']];
        if (!block) throw new Error(`delta for block ${data['index']} before its start`);
        const d = data['delta'];
        if (d.type === 'text_delta') block.text += d.text;
        else if (d.type === 'thinking_delta') block.thinking += d.thinking;
        else if (d.type === 'signature_delta') block.signature = d.signature;
        else if (d.type === 'input_json_delta') this.#json.set(data['index'], (this.#json.get(data['index']) ?? '') + d.partial_json);
        break;
      }
      case 'content_block_stop': {
        const json = this.#json.get(data['index']);
        if (json !== undefined) this.#need().content[data['index']].input = JSON.parse(json);
        break;
      }
      case 'message_delta': {
        const m = this.#need();
        m.stop_reason = data['delta'].stop_reason;
        m.stop_sequence = data['delta'].stop_sequence;
        m.usage = { ...m.usage, ...data['usage'] };
        break;
      }
      case 'message_stop':
        this.#stopped = true;
        break;
      default:
        break; // ping and events the SDK does not know
    }
  }

  final(): Obj {
    if (!this.#stopped) throw new Error('stream ended without message_stop');
    return this.#need();
  }

  #need(): Obj {
    if (!this.#message) throw new Error('event before message_start');
    return this.#message;
  }
}

/** Calls `run` and returns the MessagesApiError it throws (fails the test when it throws none). */
export async function apiError(run: () => Promise<unknown>): Promise<MessagesApiError & { events?: { event: string; data: Obj }[] }> {
  try {
    await run();
  } catch (e) {
    if (e instanceof MessagesApiError) return e;
    throw e;
  }
  throw new Error('expected a MessagesApiError');
}
