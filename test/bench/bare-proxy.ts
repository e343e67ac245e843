/**
 * Bench baseline: the least a proxy can do (forward method, path, headers and body; pipe the
 * answer back; no parsing), so the gateway's ratio to it is the cost of being a gateway.
 * Usage: node bare-proxy.js --upstream http://127.0.0.1:PORT [--processes N] ; prints its URL.
 * With --processes N > 1 it runs as N node:cluster workers on one port, as GW_WORKERS runs the
 * gateway: the ceiling of what N processes can do on this machine.
 */
import cluster from 'node:cluster';
import { Agent, createServer, request } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { upstream: { type: 'string' }, processes: { type: 'string', default: '1' } } });
if (!values.upstream) throw new Error('bare-proxy: --upstream URL is required');
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
  serveProxy(cluster.isWorker);
}

function serveProxy(quiet: boolean): void {
  const upstream = new URL(values.upstream!);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });

  // Connection-level headers belong to each hop, not to the forwarded message.
  const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

  function strip(headers: Record<string, string | string[] | undefined>) {
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP.has(k)) out[k] = v;
    return out;
  }

  const server = createServer((req, res) => {
    const headers = strip(req.headers);
    headers.host = upstream.host;
    const up = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, strip(upRes.headers));
        upRes.pipe(res);
      },
    );
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    res.on('close', () => {
      if (!res.writableFinished) up.destroy(); // client went away: drop the upstream call too
    });
    req.pipe(up);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const addr = server.address();
    if (addr && typeof addr === 'object' && !quiet) console.log(`listening on http://127.0.0.1:${addr.port}`);
  });
}
