/** The bench's sequential timing (ttfb and latency scenarios) against loopback servers. */
import { expect } from 'chai';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { measureSequential, shuffledIndices } from './sequential.js';
import type { Target } from './targets.js';

/** A stream server: headers at once, a first event after `firstMs`, the end `restMs` later; logs who asked, in order. */
async function streamServer(name: string, firstMs: number, restMs: number, order: string[]): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      order.push(name);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      setTimeout(() => {
        res.write('data: {"choices":[]}\n\n');
        setTimeout(() => res.end('data: [DONE]\n\n'), restMs);
      }, firstMs);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

const target = (label: string, server: Server, stream = true): Target => ({
  label, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, path: '/v1/chat/completions',
  headers: { 'content-type': 'application/json' }, body: '{"stream":true}', stream, pid: process.pid,
});

describe('bench: sequential timing', function () {
  this.timeout(20_000);
  const servers: Server[] = [];
  afterEach(() => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      s.close();
    }
  });

  it('times the first chunk and the end of each answer, targets taking turns request by request', async () => {
    const order: string[] = [];
    servers.push(await streamServer('a', 5, 30, order), await streamServer('b', 40, 10, order));
    // A fixed sequence of "random" numbers: rounds ask a first, then b first, then a first ...
    const draws = [0.9, 0.1];
    let draw = 0;
    const [a, b] = await measureSequential([target('a', servers[0]!), target('b', servers[1]!)], 4, 1, () => draws[draw++ % 2]!);
    expect(order).to.deep.equal(['a', 'b', 'b', 'a', 'a', 'b', 'b', 'a', 'a', 'b']);
    expect(a!.samples).to.equal(4);
    expect(a!.firstP50).to.be.within(4_000, 30_000);
    expect(a!.totalP50).to.be.at.least(34_000);
    expect(b!.firstP50).to.be.at.least(39_000);
    expect(b!.totalP50).to.be.at.least(49_000);
    expect(b!.firstP50).to.be.greaterThan(a!.firstP50);
  });

  it('asks every target once per round, in orders that vary from round to round', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const firsts = new Set<number>();
    for (let round = 0; round < 60; round++) {
      const order = shuffledIndices(3, random);
      expect([...order].sort()).to.deep.equal([0, 1, 2]);
      firsts.add(order[0]!);
    }
    expect(firsts.size).to.equal(3);
  });

  it('fails loudly on an answer that is not a 200 with the expected body', async () => {
    const bad = createServer((req, res) => {
      req.resume();
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"no key"}');
    });
    bad.listen(0, '127.0.0.1');
    await once(bad, 'listening');
    servers.push(bad);
    const error = await measureSequential([target('bad', bad, false)], 1, 0).then(() => undefined, (e: Error) => e);
    expect(error?.message).to.match(/bad: answered 401: \{"error":"no key"\}/);
  });

  it('fails loudly on a stream that never says [DONE]', async () => {
    const cut = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: {"choices":[]}\n\n');
    });
    cut.listen(0, '127.0.0.1');
    await once(cut, 'listening');
    servers.push(cut);
    const error = await measureSequential([target('cut', cut)], 1, 0).then(() => undefined, (e: Error) => e);
    expect(error?.message).to.match(/cut: answered 200/);
  });
});
