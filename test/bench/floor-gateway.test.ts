/**
 * The bench's floor gateway (floor-gateway.js) against a loopback upstream: that it does the work it
 * stands for (key check, parse, re-serialise, usage, log row), passes streams on, and its failures.
 */
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { send, text, upstreamServer } from './loopback-peers.js';
import { startServer, stop, type ServerProcess } from './processes.js';

const script = join(dirname(fileURLToPath(import.meta.url)), 'floor-gateway.js');
const ANSWER = JSON.stringify({ id: 'c1', object: 'chat.completion', choices: [], usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 } });

describe('bench: floor gateway', function () {
  this.timeout(20_000);
  let dir: string;
  let up: Awaited<ReturnType<typeof upstreamServer>>;
  let floor: ServerProcess;
  let onRequest: (req: IncomingMessage, res: ServerResponse) => void;
  const headers = () => ({ 'content-type': 'application/json', authorization: 'Bearer sk-t', 'x-gw-api-key': 'bench-key', 'x-gw-custom-host': `${up.url}/v1` });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-floor-'));
    up = await upstreamServer((req, res) => onRequest(req, res));
    floor = await startServer('floor', script, ['--key', 'bench-key', '--log', dir], {}, join(dir, 'floor.log'));
  });
  afterEach(async () => {
    await stop(floor.proc);
    up.server.closeAllConnections();
    up.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the body to the custom host as it came, answers with the upstream body and a trace id, and logs a row with the usage', async () => {
    onRequest = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER);
    const res = await send(`${floor.url}/v1/chat/completions`, 'POST', headers(), '{ "model": "m-1", "messages": [] }');
    expect(res.statusCode).to.equal(200);
    expect(res.headers['x-gw-trace-id']).to.match(/^[0-9a-f-]{36}$/);
    expect(await text(res)).to.equal(ANSWER);
    const seen = up.seen[0]!;
    expect([seen.url, seen.body, seen.headers['authorization']]).to.deep.equal(['/v1/chat/completions', '{ "model": "m-1", "messages": [] }', 'Bearer sk-t']);

    await stop(floor.proc); // SIGTERM flushes the rows still waiting
    const db = new Database(join(dir, 'floor.db'), { readonly: true });
    try {
      const row = db.prepare('SELECT model, status, prompt_tokens, total_tokens, trace_id FROM request_logs').get();
      expect(row).to.deep.equal({ model: 'm-1', status: 200, prompt_tokens: 11, total_tokens: 18, trace_id: res.headers['x-gw-trace-id'] });
    } finally {
      db.close();
    }
  });

  it('with --stages, answers GET /bench/stages with the median of each stage of the whole answers since the last read', async () => {
    const staged = await startServer('floor-stages', script, ['--key', 'bench-key', '--stages'], {}, join(dir, 'floor-stages.log'));
    try {
      onRequest = (_req, res) => setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER), 30);
      for (let i = 0; i < 2; i++) {
        const res = await send(`${staged.url}/v1/chat/completions`, 'POST', headers(), '{"model":"m-1"}');
        expect(res.statusCode).to.equal(200);
        await text(res);
      }
      const read = async () => JSON.parse(await text(await send(`${staged.url}/bench/stages`, 'GET', {}))) as { requests: number; stages: { stage: string; p50Us: number }[] };
      const times = await read();
      expect(times.requests).to.equal(2);
      expect(times.stages.map((s) => s.stage)).to.deep.equal([
        'host → body read', 'body parsed, key checked', 'request handed to undici', 'provider answers (headers)', 'answer body in', 'answer written',
      ]);
      for (const s of times.stages) expect(s.p50Us, s.stage).to.be.a('number').and.at.least(0);
      expect(times.stages[3]!.p50Us).to.be.at.least(30_000);
      expect((await read()).requests).to.equal(0);
    } finally {
      await stop(staged.proc);
    }
  });

  it('refuses an unknown key with 401 and a body that is not JSON with 400, without calling the upstream', async () => {
    const unknown = await send(`${floor.url}/v1/chat/completions`, 'POST', { ...headers(), 'x-gw-api-key': 'nope' }, '{}');
    expect([unknown.statusCode, JSON.parse(await text(unknown))]).to.deep.equal([401, { error: { message: 'unknown key' } }]);
    const broken = await send(`${floor.url}/v1/chat/completions`, 'POST', headers(), '{"model":');
    expect(broken.statusCode).to.equal(400);
    await text(broken);
    expect(up.seen).to.have.length(0);
  });

  it('passes a stream chunk by chunk and drops the upstream call when the client goes away', async () => {
    const upstreamClosed = new Promise<void>((resolve) => {
      onRequest = (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: one\n\n');
        res.on('close', () => resolve());
      };
    });
    const res = await send(`${floor.url}/v1/chat/completions`, 'POST', headers(), '{"stream":true}');
    expect(res.headers['content-type']).to.equal('text/event-stream');
    res.setEncoding('utf8');
    const [first] = (await once(res, 'data')) as [string];
    expect(first).to.equal('data: one\n\n');
    res.destroy();
    await upstreamClosed;
  });

  it('answers 502 when the upstream is not there', async () => {
    up.server.close();
    up.server.closeAllConnections();
    await once(up.server, 'close');
    const res = await send(`${floor.url}/v1/chat/completions`, 'POST', headers(), '{}');
    expect(res.statusCode).to.equal(502);
    await text(res);
  });
});
