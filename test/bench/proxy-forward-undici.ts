/**
 * The undici forwarding of the bare proxy (`--client undici`, the default reference): one keep-alive
 * `Pool` for the upstream origin (pipelining 1, 256 connections, as the gateway's transport) and
 * `dispatch` with a handler that writes each answer chunk to the client as it arrives, so a
 * stream is never held back. Nothing is parsed beyond what undici itself parses.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Pool, type Dispatcher } from 'undici';
import { HOP_BY_HOP, type Forward } from './proxy-forward.js';

export interface PipeBackOptions {
  /** Added to the upstream's headers. */
  headers?: Record<string, string>;
  /** Told the upstream's status once the answer has ended. */
  ended?: (status: number) => void;
}

/** Writes undici's answer to the client: status and headers, then chunks, with backpressure. */
export class PipeBack implements Dispatcher.DispatchHandler {
  protected status = 0;

  constructor(protected readonly res: ServerResponse, private readonly options: PipeBackOptions = {}) {}

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.res.once('close', () => {
      if (!this.res.writableFinished) controller.abort(new Error('client went away')); // drop the upstream call too
    });
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    this.status = statusCode;
    const out: Record<string, string | string[]> = { ...this.options.headers };
    for (const name in headers) {
      const value = headers[name];
      if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
    }
    this.res.writeHead(statusCode, out);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.res.write(chunk)) return;
    controller.pause();
    this.res.once('drain', () => controller.resume());
  }

  onResponseEnd(): void {
    this.res.end();
    this.options.ended?.(this.status);
  }

  onResponseError(_controller: Dispatcher.DispatchController, _error: Error): void {
    if (!this.res.headersSent) this.res.writeHead(502).end();
    else this.res.destroy();
  }
}

export function undiciForward(upstream: URL): Forward {
  const pool = new Pool(upstream.origin, { connections: 256, pipelining: 1, keepAliveTimeout: 60_000 });
  return (req: IncomingMessage, res: ServerResponse) => {
    // Raw header pairs minus the hop's own and `host` (undici sets the upstream's).
    const headers: string[] = [];
    const raw = req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase();
      if (name !== 'host' && !HOP_BY_HOP.has(name)) headers.push(raw[i]!, raw[i + 1]!);
    }
    // The whole body first, as the gateway must read it too (it parses it; this proxy does not).
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length === 0 ? null : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      pool.dispatch({ path: req.url ?? '/', method: req.method as Dispatcher.HttpMethod, headers, body }, new PipeBack(res));
    });
  };
}
