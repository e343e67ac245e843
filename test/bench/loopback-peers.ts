/** The loopback peers of the bench's own tests: an upstream that records what reached it, and a client. */
import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Answers `(res, seen)`; records what reached it. */
export async function upstreamServer(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      answer(req, res);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** One request through the proxy; resolves at the headers, with the response to read. */
export function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, resolve);
    req.on('error', reject);
    req.end(body);
  });
}

export async function text(res: IncomingMessage): Promise<string> {
  let out = '';
  res.setEncoding('utf8');
  for await (const c of res) out += c as string;
  return out;
}
