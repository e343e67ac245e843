/** A scriptable loopback HTTP server for checks that call out (webhooks, classifiers, JWKS, images). */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  json: any;
}

export type Handler = (req: Received, res: ServerResponse) => void | Promise<void>;

export interface LocalServer {
  url: string;
  received: Received[];
  /** Replaces the handler (tests script one answer at a time). */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export async function startServer(handler: Handler = (_req, res) => void res.end()): Promise<LocalServer> {
  let current = handler;
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const rec: Received = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body, json };
      received.push(rec);
      Promise.resolve(current(rec, res)).catch(() => res.destroy());
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    received,
    handle: (h) => void (current = h),
    close: async () => {
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await done;
    },
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)), ...headers });
  res.end(payload);
}
