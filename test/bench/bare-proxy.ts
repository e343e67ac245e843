/**
 * Bench reference: the least a proxy can do (forward method, path, headers and body; pipe the
 * answer back; no parsing), so the gateway's ratio to it is the cost of being a gateway.
 * Usage: node bare-proxy.js --upstream http://127.0.0.1:PORT [--client undici|http] [--processes N] ;
 * prints its URL. `undici` (default) forwards with an undici Pool as the gateway does; `http` with
 * node:http's client, the older and slower reference.
 * With --processes N > 1 it runs as N node:cluster workers on one port, as GW_WORKERS runs the
 * gateway: the ceiling of what N processes can do on this machine.
 */
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { httpForward } from './proxy-forward-http.js';
import { undiciForward } from './proxy-forward-undici.js';

const clients = { undici: undiciForward, http: httpForward };

const { values } = parseArgs({
  options: { upstream: { type: 'string' }, client: { type: 'string', default: 'undici' }, processes: { type: 'string', default: '1' } },
});
if (!values.upstream) throw new Error('bare-proxy: --upstream URL is required');
const client = values.client as keyof typeof clients;
if (!Object.hasOwn(clients, client)) throw new Error(`bare-proxy: --client must be one of ${Object.keys(clients).join(', ')}, got "${values.client}"`);
const processes = Number(values.processes);
if (!Number.isInteger(processes) || processes < 1) throw new Error(`bare-proxy: --processes must be a positive integer, got "${values.processes}"`);

if (processes > 1 && cluster.isPrimary) {
  let listening = 0;
  cluster.on('listening', (_worker, address) => {
    if (++listening === processes) console.log(`listening on http://127.0.0.1:${address.port}`);
  });
  cluster.on('exit', () => process.exit(1));
  for (let i = 0; i < processes; i++) cluster.fork();
} else {
  const server = createServer(clients[client](new URL(values.upstream)));
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const addr = server.address();
    if (addr && typeof addr === 'object' && !cluster.isWorker) console.log(`listening on http://127.0.0.1:${addr.port}`);
  });
}
