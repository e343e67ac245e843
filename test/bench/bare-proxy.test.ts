/**
 * The bench's reference proxies (bare-proxy.js, `--client undici` and `--client http`) against a
 * loopback upstream: what they forward, that streams pass chunk by chunk, and their failures.
 */
import { expect } from 'chai';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { send, text, upstreamServer } from './loopback-peers.js';
import { freePort, startServer, stop, type ServerProcess } from './processes.js';

const script = join(dirname(fileURLToPath(import.meta.url)), 'bare-proxy.js');

for (const client of ['undici', 'http']) {
  describe(`bench: bare proxy, --client ${client}`, function () {
    this.timeout(20_000);
    let dir: string;
    let up: Awaited<ReturnType<typeof upstreamServer>>;
    let proxy: ServerProcess;
    let onRequest: (req: IncomingMessage, res: ServerResponse) => void;

    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), 'gw-bare-proxy-'));
      up = await upstreamServer((req, res) => onRequest(req, res));
      proxy = await startServer('bare-proxy', script, ['--upstream', up.url, '--client', client], {}, join(dir, 'proxy.log'));
    });
    afterEach(async () => {
      await stop(proxy.proc);
      up.server.closeAllConnections();
      up.server.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('forwards method, path with query, headers and body, and brings back status, headers and body', async () => {
      onRequest = (_req, res) => res.writeHead(201, { 'x-answer': 'yes', 'content-type': 'application/json' }).end('{"ok":true}');
      const res = await send(`${proxy.url}/v1/chat/completions?x=1`, 'POST', { 'content-type': 'application/json', authorization: 'Bearer sk-t', 'x-custom': 'v' }, '{"a":1}');
      expect(res.statusCode).to.equal(201);
      expect(res.headers['x-answer']).to.equal('yes');
      expect(await text(res)).to.equal('{"ok":true}');
      const seen = up.seen[0]!;
      expect([seen.method, seen.url, seen.body]).to.deep.equal(['POST', '/v1/chat/completions?x=1', '{"a":1}']);
      expect(seen.headers['authorization']).to.equal('Bearer sk-t');
      expect(seen.headers['x-custom']).to.equal('v');
      expect(seen.headers['host']).to.equal(new URL(up.url).host);
    });

    it('forwards a GET without a body', async () => {
      onRequest = (_req, res) => res.end('fine');
      const res = await send(`${proxy.url}/health`, 'GET', {});
      expect([res.statusCode, await text(res)]).to.deep.equal([200, 'fine']);
      expect([up.seen[0]!.method, up.seen[0]!.body]).to.deep.equal(['GET', '']);
    });

    it('passes a stream chunk by chunk: the first event arrives while the upstream still holds the rest', async () => {
      let finish!: () => void;
      onRequest = (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: one\n\n');
        finish = () => res.end('data: [DONE]\n\n');
      };
      const res = await send(`${proxy.url}/v1/chat/completions`, 'POST', { 'content-type': 'application/json' }, '{"stream":true}');
      res.setEncoding('utf8');
      const [first] = (await once(res, 'data')) as [string];
      expect(first).to.equal('data: one\n\n');
      finish();
      expect(await text(res)).to.equal('data: [DONE]\n\n');
    });

    it('answers 502 when the upstream is not there', async () => {
      const closed = await upstreamServer(() => undefined);
      const port = await freePort();
      closed.server.close();
      const lone = await startServer('bare-proxy', script, ['--upstream', `http://127.0.0.1:${port}`, '--client', client], {}, join(dir, 'lone.log'));
      try {
        const res = await send(`${lone.url}/v1/chat/completions`, 'POST', {}, '{}');
        expect(res.statusCode).to.equal(502);
        await text(res);
      } finally {
        await stop(lone.proc);
      }
    });

    it('drops the upstream call when the client goes away mid-stream', async () => {
      const upstreamClosed = new Promise<void>((resolve) => {
        onRequest = (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('data: one\n\n');
          res.on('close', () => resolve());
        };
      });
      const res = await send(`${proxy.url}/v1/chat/completions`, 'POST', {}, '{}');
      await once(res, 'data');
      res.destroy();
      await upstreamClosed;
    });

    it('refuses bad options with a clear message', async () => {
      const error = await startServer('bare-proxy', script, ['--upstream', up.url, '--client', 'curl'], {}, join(dir, 'bad.log')).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error?.message).to.match(/--client must be one of undici, http, got "curl"/);
    });
  });
}

describe('bench: bare proxy, --processes 2', function () {
  this.timeout(20_000);

  it('serves as two cluster workers on one port, both counted in the primary\'s process tree', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-bare-proxy-'));
    const up = await upstreamServer((_req, res) => res.end('ok'));
    const proxy = await startServer('bare-proxy', script, ['--upstream', up.url, '--processes', '2'], {}, join(dir, 'proxy.log'));
    try {
      const res = await send(`${proxy.url}/x`, 'POST', {}, 'b');
      expect([res.statusCode, await text(res)]).to.deep.equal([200, 'ok']);
      if (process.platform === 'linux') {
        const { cpuTimesUs } = await import('./cpu-time.js');
        expect(cpuTimesUs([proxy.proc.pid!])![0]).to.be.greaterThan(0);
      }
    } finally {
      await stop(proxy.proc);
      up.server.closeAllConnections();
      up.server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
