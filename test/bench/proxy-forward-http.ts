/**
 * The node:http forwarding of the bare proxy (`--client http`): a keep-alive `http.Agent`, the
 * request piped up, the answer piped back. The bench's second reference.
 */
import { Agent, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { HOP_BY_HOP, type Forward } from './proxy-forward.js';

function strip(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  return out;
}

export function httpForward(upstream: URL): Forward {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  return (req: IncomingMessage, res: ServerResponse) => {
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
  };
}
