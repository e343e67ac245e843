/**
 * The shared transport: undici enters the codebase here. One Agent per gateway keeps a keep-alive
 * pool per origin, so every provider call re-uses connections; bodies are streamed, never buffered
 * unless a caller asks.
 */
import { Agent, request } from 'undici';
import type { Transport, UpstreamReply, UpstreamRequest } from './types.js';

export interface TransportOptions {
  /** Connections per origin. */
  connections?: number;
  keepAliveTimeoutMs?: number;
  /** Upper bound for a provider to send response headers (a per-request time-out is usually shorter). */
  headersTimeoutMs?: number;
  /** Upper bound of silence between two body chunks. */
  bodyTimeoutMs?: number;
}

export class UndiciTransport implements Transport {
  readonly #agent: Agent;

  constructor(options: TransportOptions = {}) {
    this.#agent = new Agent({
      connections: options.connections ?? 256,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
      keepAliveMaxTimeout: 600_000,
      headersTimeout: options.headersTimeoutMs ?? 600_000,
      bodyTimeout: options.bodyTimeoutMs ?? 300_000,
      pipelining: 1,
    });
  }

  async send(req: UpstreamRequest, signal: AbortSignal): Promise<UpstreamReply> {
    const res = await request(req.url, {
      method: req.method as 'POST',
      headers: req.headers,
      // undici streams any async iterable body; its declared types only name Node streams.
      body: req.body as string | Uint8Array | undefined,
      signal,
      dispatcher: this.#agent,
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const body = res.body;
    return {
      status: res.statusCode,
      headers,
      body,
      bytes: async () => new Uint8Array(await body.arrayBuffer()),
      text: () => body.text(),
      dump: () => body.dump(),
    };
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}
