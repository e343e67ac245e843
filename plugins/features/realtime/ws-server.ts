/**
 * The `ws` side of the plugin, imported on the first upgrade (a gateway that never sees a
 * WebSocket session does not load `ws`): the server that accepts clients, and the session relay.
 */
import type { IncomingMessage } from 'node:http';
import { WebSocketServer } from 'ws';
import { chosenProtocol } from './handshake.js';

export { RealtimeSession } from './session.js';

/**
 * A server without a port of its own (the host hands it upgrades). `extraHeaders(request)` gives the
 * headers plugins set for the answer: ws writes the 101, and they join it there.
 */
export function createSessionServer(maxFrameBytes: number, extraHeaders: (request: IncomingMessage) => Record<string, string> | undefined): WebSocketServer {
  const server = new WebSocketServer({
    noServer: true, clientTracking: false, perMessageDeflate: false, maxPayload: maxFrameBytes,
    handleProtocols: (offered) => chosenProtocol(offered),
  });
  server.on('headers', (lines: string[], request: IncomingMessage) => {
    const headers = extraHeaders(request);
    if (!headers) return;
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value.replace(/[\r\n]/g, ' ')}`);
  });
  return server;
}
