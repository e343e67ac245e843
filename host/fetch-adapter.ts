/**
 * Web-standard front end: `fetch(Request) → Response`, for servers built on the Fetch API
 * (Hono, Bun, Deno, workers). Same kernel, same rules as the node:http front end.
 */
import { DEFAULT_JSON_MAX_DEPTH, Errors, type GatewayRequest, type GatewayResponse, type HeaderMap, type Runtime } from '../core/index.js';
import { readWebBody, streamedBody } from './client-body.js';
import { requestBodyUsed } from './parsed-body.js';
import { bodyMode, missResponse, parseJson, splitUrl } from './dispatch.js';

/** With `next`, paths the gateway does not serve are handed to it (Hono: the next middleware). */
export type FetchHandler = (request: Request, next?: () => Response | Promise<Response>) => Promise<Response>;

export function createFetchHandler(runtime: Runtime): FetchHandler {
  const { kernel, registries, settings } = runtime;
  const limit = settings.bodyLimit;
  const maxJsonDepth = settings.jsonMaxDepth ?? DEFAULT_JSON_MAX_DEPTH;

  return async (incoming, next) => {
    const method = incoming.method.toUpperCase();
    const url = new URL(incoming.url);
    const { path, search } = splitUrl(url.pathname + url.search);
    const query = new URLSearchParams(search);
    const match = registries.routes.match(method, path);
    if (!match.route) {
      if (next && match.allowed.length === 0) return next();
      return toWebResponse(missResponse(match.allowed, method, path), () => undefined);
    }
    const headers: HeaderMap = {};
    incoming.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const request: GatewayRequest = { method, path, query, headers, body: undefined, signal: incoming.signal, secure: url.protocol === 'https:' };
    const ctx = kernel.createContext(request, match.route, match.params);
    const mode = bodyMode(match.route, method);
    // A used body (Hono's c.req.json() ran first) can never be read again: say so instead of failing as a client error.
    const bodyUsed = mode !== 'none' && incoming.bodyUsed;
    if (mode === 'stream' && incoming.body && !bodyUsed) request.bodyStream = streamedBody(incoming.body as unknown as AsyncIterable<Uint8Array>);
    const loadBody = bodyUsed ? () => Promise.reject(requestBodyUsed()) : mode === 'none' || mode === 'stream' ? undefined : async () => {
      const bytes = await readBody(incoming, limit);
      request.rawBody = bytes;
      if (mode === 'json') request.body = parseJson(bytes, maxJsonDepth);
    };
    const response = await kernel.handle(ctx, loadBody);
    return toWebResponse(response, (error) => kernel.complete(ctx, response, error));
  };
}

function readBody(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) return Promise.reject(Errors.payloadTooLarge(limit));
  if (!request.body) return Promise.resolve(new Uint8Array(0));
  return readWebBody(request.body as unknown as AsyncIterable<Uint8Array>, limit);
}

function toWebResponse(response: GatewayResponse, done: (error?: unknown) => void): Response {
  const init = { status: response.status, headers: response.headers };
  if (!response.stream) {
    const body = response.json ? response.json.bytes() : response.raw;
    done();
    return new Response(body ?? null, init);
  }
  const iterator = response.stream[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: finished, value } = await iterator.next();
        if (finished) {
          controller.close();
          done();
        } else {
          controller.enqueue(value);
        }
      } catch (e) {
        controller.error(e);
        done(e);
      }
    },
    async cancel() {
      await iterator.return?.();
      done(Errors.clientClosed());
    },
  });
  return new Response(body, init);
}
