/** A test client of the gateway's realtime route (ws): its events in order, how it closed, or the HTTP refusal. */
import WebSocket from 'ws';

export interface Opened {
  ws: WebSocket;
  protocol: string;
  /** Parsed text events and raw binary frames, in arrival order. */
  next(): Promise<{ text?: Record<string, any>; binary?: Buffer }>;
  /** Next text event of this type (earlier events are skipped). */
  event(type: string): Promise<Record<string, any>>;
  closed: Promise<{ code: number; reason: string }>;
  send(event: Record<string, unknown>): void;
  /** The 101's headers. */
  headers: Record<string, string | string[] | undefined>;
}

export interface Refused {
  status: number;
  body: any;
}

export interface ConnectOptions {
  headers?: Record<string, string>;
  protocols?: string[];
  maxPayload?: number;
}

export function connect(url: string, options: ConnectOptions = {}): Promise<Opened | Refused> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options.protocols ?? [], { headers: options.headers, maxPayload: options.maxPayload });
    const queue: { text?: Record<string, any>; binary?: Buffer }[] = [];
    let wake: (() => void) | undefined;
    let upgradeHeaders: Record<string, string | string[] | undefined> = {};
    ws.on('upgrade', (res) => {
      upgradeHeaders = res.headers;
    });
    ws.on('message', (data: Buffer, binary) => {
      queue.push(binary ? { binary: data } : { text: JSON.parse(data.toString('utf8')) });
      wake?.();
    });
    const closed = new Promise<{ code: number; reason: string }>((done) => ws.on('close', (code, reason) => {
      done({ code, reason: reason.toString('utf8') });
      wake?.();
    }));
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch { /* kept as text */ }
        resolve({ status: res.statusCode ?? 0, body });
        ws.terminate();
      });
    });
    ws.on('error', (e) => {
      if (ws.readyState === WebSocket.CLOSED && queue.length === 0) reject(e);
    });
    ws.on('open', () => {
      const next = async () => {
        while (queue.length === 0) {
          if (ws.readyState === WebSocket.CLOSED) throw new Error('closed before the next frame');
          await new Promise<void>((r) => (wake = r));
        }
        return queue.shift()!;
      };
      resolve({
        ws, protocol: ws.protocol, next, closed, headers: upgradeHeaders,
        send: (event) => ws.send(JSON.stringify(event)),
        event: async (type) => {
          for (;;) {
            const frame = await next();
            if (frame.text?.['type'] === type) return frame.text;
          }
        },
      });
    });
  });
}

export function opened(result: Opened | Refused): Opened {
  if ('ws' in result) return result;
  throw new Error(`expected a session, got HTTP ${result.status}: ${JSON.stringify(result.body)}`);
}

export function refused(result: Opened | Refused): Refused {
  if ('status' in result) return result;
  result.ws.terminate();
  throw new Error('expected a refusal, got a session');
}
