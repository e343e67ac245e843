/**
 * The standalone server: node:http around a gateway, with graceful shutdown. On stop it refuses
 * new connections, lets in-flight requests and streams finish (bounded), then closes the gateway
 * (flushing stores) and resolves. Slow, oversized or malformed requests are answered in the error
 * envelope and their connections closed (connection-limits.ts, client-error.ts).
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { Services } from '../core/index.js';
import { clientErrorListener } from './client-error.js';
import { checkConnectionLimits, DEFAULT_CONNECTION_LIMITS, sweepIntervalMs, type ConnectionLimits } from './connection-limits.js';
import type { Gateway } from './gateway.js';

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  /** Graceful stop; resolves once everything is closed. Idempotent. */
  stop(): Promise<void>;
}

export interface ServeOptions extends Partial<ConnectionLimits> {
  port: number;
  host: string;
  shutdownTimeoutMs: number;
}

export async function serve(gateway: Gateway, options: ServeOptions): Promise<RunningServer> {
  const limits: ConnectionLimits = {
    headersTimeoutMs: options.headersTimeoutMs ?? DEFAULT_CONNECTION_LIMITS.headersTimeoutMs,
    bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULT_CONNECTION_LIMITS.bodyTimeoutMs,
    maxHeaderBytes: options.maxHeaderBytes ?? DEFAULT_CONNECTION_LIMITS.maxHeaderBytes,
    maxConnections: options.maxConnections ?? DEFAULT_CONNECTION_LIMITS.maxConnections,
  };
  checkConnectionLimits(limits);
  const server = createServer({
    keepAliveTimeout: 65_000,
    headersTimeout: limits.headersTimeoutMs,
    // node's request time covers headers and body, and ends once the request has fully arrived.
    requestTimeout: limits.bodyTimeoutMs,
    connectionsCheckingInterval: sweepIntervalMs(limits),
    maxHeaderSize: limits.maxHeaderBytes,
  }, (req, res) => gateway.handle(req, res));
  server.maxConnections = limits.maxConnections;
  // The latest response of each connection, for answering its client errors (client-error.ts).
  const latest = new WeakMap<Duplex, ServerResponse>();
  const logger = gateway.runtime.services.get(Services.Logger);
  server.on('clientError', clientErrorListener(limits, (socket) => latest.get(socket), logger));
  // Sockets taken over by an upgrade (WebSocket sessions): node's connection bookkeeping no longer
  // sees them, so a stop that outlasts its bound destroys those still open.
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    gateway.upgrade(req, socket, head);
  });
  let inFlight = 0;
  let idle: (() => void) | undefined;
  server.on('request', (req, res) => {
    latest.set(req.socket, res);
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
      if (upgraded.size > 0) {
        const timer = setTimeout(() => {
          for (const socket of upgraded) socket.destroy();
        }, options.shutdownTimeoutMs);
        await closed;
        clearTimeout(timer);
      }
      await closed;
      await gateway.close();
    })();
    return stopping;
  };
  return { server, url: `http://${host}:${address.port}`, stop };
}
