/** A local OTLP/HTTP collector for tests: records the JSON bodies POSTed to /v1/traces. */
import { createServer, type Server } from 'node:http';

export interface OtlpSpanJson {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: Record<string, unknown> }[];
  status: { code: number };
}

export interface Collector {
  url: string;
  bodies: any[];
  headers: Record<string, string | string[] | undefined>[];
  spans(): OtlpSpanJson[];
  /** Answer every export with this status from now on. */
  answer(status: number): void;
  /** Leave exports unanswered (a hung collector). */
  hang(on: boolean): void;
  close(): Promise<void>;
}

export function attr(span: OtlpSpanJson, key: string): unknown {
  const value = span.attributes.find((a) => a.key === key)?.value;
  if (!value) return undefined;
  if ('intValue' in value) return Number(value['intValue']);
  return Object.values(value)[0];
}

export async function startCollector(): Promise<Collector> {
  const bodies: any[] = [];
  const headers: Record<string, string | string[] | undefined>[] = [];
  let status = 200;
  let hanging = false;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        headers.push({ ...req.headers });
      }
      if (hanging) return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('collector: no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    bodies,
    headers,
    spans: () => bodies.flatMap((b) => b.resourceSpans.flatMap((r: any) => r.scopeSpans.flatMap((s: any) => s.spans))),
    answer: (s) => {
      status = s;
    },
    hang: (on) => {
      hanging = on;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
