/**
 * The shared transport: undici enters the codebase here. One Agent per gateway keeps a keep-alive
 * pool per origin, so every provider call re-uses connections; bodies are streamed, never buffered
 * unless a caller asks.
 *
 * Calls go through undici's `dispatch` with a handler of our own rather than `undici.request`:
 * a reply is a queue of the chunks undici hands over, read whole (`bytes`) or as they come
 * (async iteration, with backpressure), without a Node Readable and its event machinery. A call
 * is aborted through an AbortSource: for the client's own request that is a plain callback on its
 * close, registered for the call's lifetime and calling undici's abort, with no AbortSignal made.
 *
 * Nothing here follows redirects (a 3xx is handed to the caller as it is), and every new
 * connection passes the outbound host policy first (outbound-connector.ts).
 */
import type { Agent, Dispatcher } from 'undici';
import { abortSourceOf, type AbortSource } from './abort-source.js';
import { lazy } from './lazy.js';
import { OutboundPolicy } from './outbound-policy.js';
import type { Transport, UpstreamReply, UpstreamRequest } from './types.js';

export interface TransportOptions {
  /** Connections per origin. */
  connections?: number;
  keepAliveTimeoutMs?: number;
  /** Upper bound for a provider to send response headers (a per-request time-out is usually shorter). */
  headersTimeoutMs?: number;
  /** Upper bound of silence between two body chunks. */
  bodyTimeoutMs?: number;
  /** Hosts every new connection is checked against; default: only the default deny list. */
  policy?: OutboundPolicy;
}

/** undici is imported on the first call (or in the background once the host listens), not at boot. */
const undici = lazy(() => import('./undici-agent.js'), { warm: true });

export class UndiciTransport implements Transport {
  readonly #options: TransportOptions;
  #agent?: Agent;
  #closed = false;

  constructor(options: TransportOptions = {}) {
    this.#options = { ...options, policy: options.policy ?? new OutboundPolicy() };
  }

  send(req: UpstreamRequest, abort: AbortSignal | AbortSource): Promise<UpstreamReply> {
    const source = abortSourceOf(abort);
    if (source.aborted) return Promise.reject(source.reason);
    const agent = this.#agent ?? this.#agentNow();
    if (!agent) return this.#loadAgent().then(() => this.send(req, abort));
    const { origin, path } = splitUrl(req.url);
    return new Promise<UpstreamReply>((resolve, reject) => {
      const handler = new ReplyHandler(source, resolve, reject);
      try {
        agent.dispatch({
          origin,
          path,
          method: req.method as Dispatcher.HttpMethod,
          headers: req.headers,
          // undici streams any async iterable body; its declared types only name Node streams.
          body: req.body as string | Uint8Array | undefined,
        }, handler);
      } catch (e) {
        handler.fail(e as Error);
      }
    });
  }

  close(): Promise<void> {
    this.#closed = true;
    return this.#agent?.close() ?? Promise.resolve();
  }

  /** The agent, made now if undici is already imported. */
  #agentNow(): Agent | undefined {
    const module = undici.loaded;
    if (!module || this.#closed) return undefined;
    this.#agent = module.createAgent(this.#options);
    return this.#agent;
  }

  async #loadAgent(): Promise<void> {
    await undici();
    if (this.#closed) throw new Error('the transport is closed');
    this.#agentNow();
  }
}

const URL_START = /^https?:\/\/[^/?#]+/i;

/** `https://host:port/p?q` → origin and path, without a URL object per call. */
export function splitUrl(url: string): { origin: string; path: string } {
  const m = URL_START.exec(url);
  if (!m) throw new TypeError(`not an http(s) URL: ${url.slice(0, 200)}`);
  const origin = m[0];
  const rest = url.slice(origin.length);
  const hash = rest.indexOf('#');
  const path = hash === -1 ? rest : rest.slice(0, hash);
  return { origin, path: path === '' ? '/' : path.startsWith('?') ? `/${path}` : path };
}

/** Chunks queued before the reader slows undici down (it stops reading the socket). */
const HIGH_WATER_BYTES = 64 * 1024;
/** An unwanted body longer than this closes its connection rather than being read to its end. */
const DUMP_LIMIT_BYTES = 128 * 1024;

type Controller = Dispatcher.DispatchController;

/**
 * undici's side: the request's progress. Settles the `send` promise with the reply when the
 * headers arrive (or with the error before then), then feeds the reply's body. From its creation to
 * the end of the body it listens to the abort source, which aborts the call through undici's controller.
 */
class ReplyHandler implements Dispatcher.DispatchHandler {
  #controller: Controller | undefined;
  #reply: Reply | undefined;
  #settled = false;
  readonly #onAbort = () => this.#controller?.abort(this.abort.reason as Error);

  constructor(
    private readonly abort: AbortSource,
    private readonly resolve: (reply: UpstreamReply) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    abort.onAbort(this.#onAbort);
  }

  onRequestStart(controller: Controller): void {
    this.#controller = controller;
    if (this.abort.aborted) controller.abort(this.abort.reason as Error);
  }

  onResponseStart(controller: Controller, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    const flat: Record<string, string> = {};
    for (const name in headers) {
      const value = headers[name];
      if (value !== undefined) flat[name] = typeof value === 'string' ? value : value.join(', ');
    }
    this.#reply = new Reply(controller, statusCode, flat, this.#release);
    this.#settled = true;
    this.resolve(this.#reply);
  }

  onResponseData(_controller: Controller, chunk: Buffer): void {
    this.#reply?.push(chunk);
  }

  onResponseEnd(): void {
    this.#release();
    this.#reply?.end();
  }

  onResponseError(_controller: Controller, error: Error): void {
    this.fail(error);
  }

  fail(error: Error): void {
    this.#release();
    if (this.#settled) {
      this.#reply?.fail(error);
      return;
    }
    this.#settled = true;
    this.reject(error);
  }

  readonly #release = () => this.abort.offAbort(this.#onAbort);
}

/** The caller's side: one answer's status, headers and body. */
class Reply implements UpstreamReply {
  readonly body: AsyncIterable<Uint8Array>;
  #chunks: Buffer[] = [];
  #queued = 0;
  #done = false;
  #error: Error | undefined;
  #discard = false;
  /** `bytes()` wants everything: no backpressure. */
  #whole = false;
  /** Wakes whoever waits for the next chunk, the end or an error. */
  #wake: (() => void) | undefined;

  constructor(
    private readonly controller: Controller,
    readonly status: number,
    readonly headers: Record<string, string>,
    private readonly release: () => void,
  ) {
    this.body = { [Symbol.asyncIterator]: () => this.#iterate() };
  }

  push(chunk: Buffer): void {
    if (this.#discard) {
      this.#queued += chunk.length;
      if (this.#queued > DUMP_LIMIT_BYTES) this.#cancel();
      return;
    }
    this.#chunks.push(chunk);
    this.#queued += chunk.length;
    if (this.#queued > HIGH_WATER_BYTES && !this.#whole) this.controller.pause();
    this.#signal();
  }

  end(): void {
    this.#done = true;
    this.#signal();
  }

  fail(error: Error): void {
    this.#error ??= error;
    this.#done = true;
    this.#signal();
  }

  async bytes(): Promise<Uint8Array> {
    this.#whole = true;
    this.controller.resume();
    while (!this.#done) await this.#next();
    if (this.#error) throw this.#error;
    const chunks = this.#chunks;
    this.#chunks = [];
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.#queued);
  }

  async text(): Promise<string> {
    return Buffer.from(await this.bytes()).toString('utf8');
  }

  /** Reads the rest without keeping it (the connection goes back to the pool), or closes a long one. */
  async dump(): Promise<void> {
    this.#discard = true;
    this.#queued = this.#chunks.reduce((n, c) => n + c.length, 0);
    this.#chunks = [];
    if (this.#queued > DUMP_LIMIT_BYTES) this.#cancel();
    this.controller.resume();
    while (!this.#done) await this.#next();
  }

  async *#iterate(): AsyncGenerator<Uint8Array> {
    let finished = false;
    try {
      for (;;) {
        if (this.#chunks.length > 0) {
          const chunk = this.#chunks.shift()!;
          this.#queued -= chunk.length;
          if (this.controller.paused && this.#queued <= HIGH_WATER_BYTES / 2) this.controller.resume();
          yield chunk;
          continue;
        }
        if (this.#error) throw this.#error;
        if (this.#done) {
          finished = true;
          return;
        }
        await this.#next();
      }
    } finally {
      // The reader stopped early (client gone, a guardrail held the rest): the connection cannot be re-used.
      if (!finished && !this.#done) this.#cancel();
    }
  }

  #cancel(): void {
    this.#discard = true;
    this.#chunks = [];
    if (!this.controller.aborted) this.controller.abort(new Error('upstream answer no longer wanted'));
    this.release();
  }

  #next(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }

  #signal(): void {
    const wake = this.#wake;
    if (wake) {
      this.#wake = undefined;
      wake();
    }
  }
}
