/**
 * node:http front end: IncomingMessage/ServerResponse ⇄ GatewayRequest/GatewayResponse.
 * Bodies are read after auth, bounded by the body limit; whole answers are written at the end of
 * the event loop's turn, together (turn-writer.ts), streams chunk by chunk with backpressure; a
 * client that goes away aborts the upstream call. Behind a body parser that already read the
 * body (Express, Fastify), the parser's result is used instead (parsed-body.ts).
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { once } from 'node:events';
import { DEFAULT_JSON_MAX_DEPTH, Errors, type AbortSource, type GatewayRequest, type GatewayResponse, type HeaderMap, type Runtime } from '../core/index.js';
import { readNodeBody, streamedBody } from './client-body.js';
import { bodyAlreadyRead, takeParsedBody, uploadReadElsewhere } from './parsed-body.js';
import { bodyMode, errorResponse, missResponse, parseJson, splitUrl, STATUS_TEXT } from './dispatch.js';
import { TurnWriter } from './turn-writer.js';

export type NodeNext = (error?: unknown) => void;
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: NodeNext) => void;

export interface NodeHandlerState {
  /** Set while shutting down: answers carry `connection: close` so keep-alive clients let go. */
  draining: boolean;
}

/** node's `upgrade` event: a request asking to switch protocols, its socket and the bytes read past its headers. */
export type NodeUpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Taken-over connections (WebSocket sessions): their requests' signals are aborted when the
 * gateway starts draining, so the route that holds each one can close it cleanly.
 */
export class UpgradedConnections {
  readonly #live = new Set<NodeRequest>();

  track(request: NodeRequest): void {
    this.#live.add(request);
    request.onAbort(() => this.#live.delete(request));
  }

  /** Aborts every live session's request (with 503: the gateway is going away). */
  drain(): void {
    for (const request of [...this.#live]) request.abort(Errors.unavailable('the gateway is shutting down'));
  }
}

/**
 * node:http `upgrade` handler: the route's `upgrade` runs after onRequest (kernel.handleUpgrade);
 * a refusal is written as plain HTTP on the raw socket, which is then closed. Unknown paths get the
 * usual 404/405; while draining, 503.
 */
export function createNodeUpgradeHandler(runtime: Runtime, state: NodeHandlerState, live: UpgradedConnections): NodeUpgradeHandler {
  const { kernel, registries } = runtime;
  return (req, socket, head) => {
    socket.on('error', () => undefined); // a reset before the handshake is not ours to report
    const method = req.method ?? 'GET';
    const { path, search } = splitUrl(req.url ?? '/');
    const match = registries.routes.match(method, path);
    if (!match.route) return writeRaw(socket, missResponse(match.allowed, method, path));
    if (state.draining) return writeRaw(socket, errorResponse(Errors.unavailable('the gateway is shutting down')));
    const request = new NodeRequest(req, method, path, search, toHeaderMap(req));
    socket.once('close', () => request.clientGone());
    live.track(request);
    const ctx = kernel.createContext(request, match.route, match.params);
    kernel.handleUpgrade(ctx, { host: 'node', message: req, socket, head }).then(
      (refusal) => {
        if (!refusal) return; // the route holds the connection now and reports its end itself
        writeRaw(socket, refusal);
        kernel.complete(ctx, refusal);
      },
      (e) => {
        const response = errorResponse(Errors.internal());
        writeRaw(socket, response);
        kernel.complete(ctx, response, e);
      },
    );
  };
}

/** An answer written on a socket node no longer manages (after `upgrade`); the connection is closed after it. */
function writeRaw(socket: Duplex, response: GatewayResponse): void {
  if (socket.destroyed) return;
  void drainStream(response);
  const body = response.json ? response.json.bytes() : response.raw ?? '';
  const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const headers: Record<string, string> = { ...response.headers, 'content-length': String(bytes.byteLength), connection: 'close' };
  let head = `HTTP/1.1 ${response.status} ${STATUS_TEXT[response.status] ?? STATUS_CODES[response.status] ?? ''}\r\n`;
  for (const name in headers) head += `${name}: ${headers[name]!.replace(/[\r\n]/g, ' ')}\r\n`;
  socket.end(Buffer.concat([Buffer.from(head + '\r\n', 'latin1'), bytes]));
}

export function createNodeHandler(runtime: Runtime, state: NodeHandlerState): NodeHandler {
  const { kernel, registries, settings } = runtime;
  const limit = settings.bodyLimit;
  const maxJsonDepth = settings.jsonMaxDepth ?? DEFAULT_JSON_MAX_DEPTH;
  const writer = new TurnWriter();

  return (req, res, next) => {
    const method = req.method ?? 'GET';
    const { path, search } = splitUrl(req.url ?? '/');
    const match = registries.routes.match(method, path);
    if (!match.route) {
      if (next && match.allowed.length === 0) return next();
      writer.started();
      void write(res, missResponse(match.allowed, method, path), state, writer).catch(() => undefined);
      writer.ended();
      return;
    }
    const route = match.route;
    const request = new NodeRequest(req, method, path, search, toHeaderMap(req));
    // 'close' comes once per response: `on` spares the wrapper `once` makes per request.
    res.on('close', () => {
      if (!res.writableFinished) request.clientGone();
    });
    const ctx = kernel.createContext(request, route, match.params);
    const mode = bodyMode(route, method);
    let loadBody: (() => Promise<void>) | undefined;
    if (mode === 'none') loadBody = undefined;
    else if (bodyAlreadyRead(req)) loadBody = async () => takeBodyReadBefore(req, request, mode, limit, maxJsonDepth);
    else if (mode === 'stream') request.bodyStream = streamedBody(req);
    else loadBody = async () => {
      const bytes = await readNodeBody(req, limit);
      request.rawBody = bytes;
      if (mode === 'json') request.body = parseJson(bytes, maxJsonDepth);
    };
    writer.started();
    kernel.handle(ctx, loadBody).then(
      async (response) => {
        let error: unknown;
        try {
          await write(res, response, state, writer);
        } catch (e) {
          error = e;
          answerUnwritable(res);
        }
        writer.ended();
        kernel.complete(ctx, response, error);
      },
      (e) => {
        // kernel.handle never rejects; this is a last line of defence.
        const response = errorResponse(Errors.internal());
        void write(res, response, state, writer).catch(() => undefined);
        writer.ended();
        kernel.complete(ctx, response, e);
      },
    );
  };
}

/** A body parser (Express, Fastify) read the stream before us: take what it left, never wait on the stream. */
function takeBodyReadBefore(req: IncomingMessage, request: NodeRequest, mode: 'json' | 'raw' | 'stream', limit: number, maxDepth: number): void {
  if (mode === 'stream') throw uploadReadElsewhere();
  const taken = takeParsedBody(req, mode === 'json', limit, maxDepth);
  request.rawBody = taken.bytes;
  if (mode === 'json') request.body = taken.value;
}

function toHeaderMap(req: IncomingMessage): HeaderMap {
  const raw = req.headers;
  // node joins repeated headers itself except set-cookie (an array): only then is a copy needed.
  if (raw['set-cookie'] === undefined) return raw as HeaderMap;
  const out: HeaderMap = {};
  for (const name in raw) {
    const value = raw[name];
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * A request of the node front end, and its own abort source: a client that goes away before the
 * answer is written aborts it. Upstream calls listen to it with a plain callback for as long as they
 * last; an AbortSignal is made only for a plugin that reads `signal` (a cache hit or a plain
 * provider call never does).
 */
export class NodeRequest implements GatewayRequest, AbortSource {
  body: unknown = undefined;
  rawBody?: Uint8Array;
  bodyStream?: AsyncIterable<Uint8Array>;
  readonly secure: boolean;
  readonly abortSource: AbortSource = this;
  #controller: AbortController | undefined;
  #reason: unknown;
  /** The common case is one call at a time: one slot, and a set only for concurrent ones. */
  #listener: (() => void) | undefined;
  #more: Set<() => void> | undefined;
  #query: URLSearchParams | undefined;

  constructor(
    req: IncomingMessage,
    readonly method: string,
    readonly path: string,
    /** The query string, without its `?`. */
    private readonly search: string,
    readonly headers: HeaderMap,
  ) {
    // An https server (or TLS embedding) hands us a TLS socket.
    this.secure = (req.socket as { encrypted?: boolean }).encrypted === true;
  }

  /** The client went away before its answer was whole. */
  clientGone(): void {
    this.abort(Errors.clientClosed());
  }

  /** Made on first read: most routes never read the query. */
  get query(): URLSearchParams {
    return (this.#query ??= new URLSearchParams(this.search));
  }

  get aborted(): boolean {
    return this.#reason !== undefined;
  }

  get reason(): unknown {
    return this.#reason;
  }

  onAbort(listener: () => void): void {
    if (this.#listener === undefined) this.#listener = listener;
    else (this.#more ??= new Set()).add(listener);
  }

  offAbort(listener: () => void): void {
    if (this.#listener === listener) this.#listener = undefined;
    else this.#more?.delete(listener);
  }

  /** Ends the request's upstream work (the client went away, the gateway shuts down); the first reason stays. */
  abort(reason: Error): void {
    if (this.#reason !== undefined) return;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const first = this.#listener;
    const more = this.#more;
    this.#listener = undefined;
    this.#more = undefined;
    first?.();
    if (more) for (const listener of more) listener();
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#reason !== undefined) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }
}

/** An answer node refused to write (a plugin's status or header out of range): a 500, or the connection ends; never a hang. */
function answerUnwritable(res: ServerResponse): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  const body = JSON.stringify(Errors.internal().toEnvelope());
  res.writeHead(500, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }).end(body);
}

async function write(res: ServerResponse, response: GatewayResponse, state: NodeHandlerState, writer: TurnWriter): Promise<void> {
  if (res.headersSent || res.destroyed) {
    await drainStream(response);
    return;
  }
  const headers = response.headers;
  // An unread request body (413, early refusals) would poison a kept-alive connection.
  if (state.draining || response.status === 413) headers['connection'] = 'close';
  const reason = STATUS_TEXT[response.status];
  if (response.stream) {
    res.writeHead(response.status, reason, headers);
    await pipeStream(res, response.stream);
    return;
  }
  const body = response.json ? response.json.bytes() : response.raw;
  if (body !== undefined) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  await writer.write(res, response.status, reason, headers, body);
}

/**
 * Writes a stream chunk by chunk. The head goes out with the first chunk, in one write: each write
 * to an idle client pays for waking it, and a provider's stream is only answered once its first
 * chunk is in (prefetched). A stream whose first chunk is not at hand within this turn of the event
 * loop (an idle relay) has its head flushed alone, so the client knows the stream is open.
 */
async function pipeStream(res: ServerResponse, stream: AsyncIterable<Uint8Array>): Promise<void> {
  const iterator = stream[Symbol.asyncIterator]();
  const headLater = setImmediate(flushHead, res);
  try {
    while (!res.destroyed) {
      const { done, value } = await iterator.next();
      clearImmediate(headLater);
      if (done || res.destroyed) break;
      if (!res.write(value)) await drainOrClose(res);
    }
  } catch (e) {
    // A stream that fails (raw audio cut by its provider; guarded event streams never throw) must
    // not end as if whole: the connection is dropped, so the client sees the body fail.
    res.destroy();
    throw e;
  } finally {
    clearImmediate(headLater);
    if (res.destroyed) await iterator.return?.();
    else res.end();
  }
}

function flushHead(res: ServerResponse): void {
  if (!res.destroyed) res.flushHeaders();
}

/** Waits for room or the end of the connection, leaving no listener behind (a long stream waits many times). */
async function drainOrClose(res: ServerResponse): Promise<void> {
  const done = new AbortController();
  try {
    await Promise.race([once(res, 'drain', { signal: done.signal }), once(res, 'close', { signal: done.signal })]);
  } finally {
    done.abort();
  }
}

/** How long an unwritten stream may take to start before it is let go regardless. */
const DRAIN_START_MS = 1_000;

/**
 * Releases an unwritten stream when the client is already gone. It is started first: an async
 * generator that never started skips its own `finally` on `return()`, and producers release what
 * they hold there (the upstream connection, a stored response's record). Our streams start at
 * once (first chunks are prefetched); the bound covers one that would not.
 */
export async function drainStream(response: GatewayResponse): Promise<void> {
  const stream = response.stream;
  if (!stream) return;
  const iterator = stream[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([iterator.next(), new Promise((resolve) => (timer = setTimeout(resolve, DRAIN_START_MS)))]);
  } catch {
    return; // it failed on its own: nothing left to release
  } finally {
    clearTimeout(timer);
  }
  await iterator.return?.();
}
