/**
 * Raw HTTP over node:net, for tests where the bytes on the wire matter: half-sent headers, bodies
 * that never end, malformed request lines. Loopback only.
 */
import { connect, type Socket } from 'node:net';

export interface RawExchange {
  socket: Socket;
  /** Resolves with everything the server sent, once the connection is closed. */
  closed: Promise<RawReply>;
}

export interface RawReply {
  text: string;
  status: number | undefined;
  /** The body parsed as JSON, when it is JSON. */
  json: any;
}

/** Opens a connection to `url` (http://127.0.0.1:port) and sends `bytes` when given. */
export function rawConnect(url: string, bytes?: string | Buffer): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const closed = new Promise<RawReply>((done) => {
      socket.on('error', () => undefined); // a reset is a close too; what arrived before it is kept
      socket.on('close', () => done(parseReply(Buffer.concat(chunks).toString('utf8'))));
    });
    socket.once('connect', () => {
      socket.off('error', reject);
      if (bytes !== undefined) socket.write(bytes);
      resolve({ socket, closed });
    });
    socket.once('error', reject);
  });
}

/** Sends `bytes` and waits for the server to close the connection. */
export async function rawRequest(url: string, bytes: string | Buffer): Promise<RawReply> {
  const { closed } = await rawConnect(url, bytes);
  return closed;
}

export function parseReply(text: string): RawReply {
  const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
  const split = text.indexOf('\r\n\r\n');
  let json: unknown;
  if (split !== -1) {
    try {
      json = JSON.parse(text.slice(split + 4));
    } catch {
      json = undefined;
    }
  }
  return { text, status: status === undefined ? undefined : Number(status), json };
}
