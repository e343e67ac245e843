/**
 * The standalone server: node:http around a gateway, with graceful shutdown. On stop it refuses
 * new connections, lets in-flight requests and streams finish (bounded), then closes the gateway
 * (flushing stores) and resolves.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Gateway } from './gateway.js';

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  /** Graceful stop; resolves once everything is closed. Idempotent. */
  stop(): Promise<void>;
}

export interface ServeOptions {
  port: number;
  host: string;
  shutdownTimeoutMs: number;
}

export async function serve(gateway: Gateway, options: ServeOptions): Promise<RunningServer> {
  const server = createServer({ keepAliveTimeout: 65_000, requestTimeout: 0 }, (req, res) => gateway.handle(req, res));
  let inFlight = 0;
  let idle: (() => void) | undefined;
  server.on('request', (_req, res) => {
    inFlight++;
    res.once('close', () => {
      inFlight--;
      if (inFlight === 0) idle?.();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      gateway.startDraining();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight > 0) {
        const drained = new Promise<void>((resolve) => {
          idle = resolve;
        });
        const timer = setTimeout(() => server.closeAllConnections(), options.shutdownTimeoutMs);
        await drained;
        clearTimeout(timer);
      }
      server.closeAllConnections();
      await closed;
      await gateway.close();
    })();
    return stopping;
  };
  return { server, url: `http://${host}:${address.port}`, stop };
}
