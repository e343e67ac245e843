/**
 * Whole answers go out at the end of the event loop's turn, together, while other requests are in
 * flight: nothing is written while the turn runs, everything queued in it is written before the
 * next turn's timers, a client that left meanwhile is skipped, and one answer that cannot be written
 * does not hold back the others. The only request in flight is answered at once.
 */
import { expect } from 'chai';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TurnWriter } from '../../host/turn-writer.js';

interface Held { req: IncomingMessage; res: ServerResponse }

/** A loopback server that hands each request to the test instead of answering it. */
async function holdingServer(): Promise<{ server: Server; port: number; next: () => Promise<Held> }> {
  const waiting: ((h: Held) => void)[] = [];
  const arrived: Held[] = [];
  const server = createServer((req, res) => {
    const h = { req, res };
    const w = waiting.shift();
    if (w) w(h);
    else arrived.push(h);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const next = () => {
    const h = arrived.shift();
    return h ? Promise.resolve(h) : new Promise<Held>((resolve) => waiting.push(resolve));
  };
  return { server, port: (server.address() as AddressInfo).port, next };
}

function get(port: number): { done: Promise<{ status: number; body: string }>; destroy: () => void } {
  const req = request({ host: '127.0.0.1', port, path: '/', agent: false });
  const done = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c)).on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
  });
  req.end();
  return { done, destroy: () => req.destroy() };
}

describe('TurnWriter', () => {
  let server: Server;
  afterEach(() => server?.close());

  it('writes nothing during the turn and every answer of the turn before the next turn\'s timers', async () => {
    const s = await holdingServer();
    server = s.server;
    const clients = [get(s.port), get(s.port), get(s.port)];
    const held = [await s.next(), await s.next(), await s.next()];
    const writer = new TurnWriter();
    for (const _ of held) writer.started();
    const order: string[] = [];
    setTimeout(() => order.push('timer'), 0);
    const writes = held.map((h, i) => writer.write(h.res, 200, 'OK', { 'content-type': 'text/plain', 'content-length': '2' }, `a${i}`).then(() => order.push(`written ${i}`)));
    // Still this turn: queued, not written.
    expect(held.map((h) => h.res.headersSent)).to.deep.equal([false, false, false]);
    await Promise.all(writes);
    expect(order).to.deep.equal(['written 0', 'written 1', 'written 2']);
    expect(held.map((h) => h.res.headersSent)).to.deep.equal([true, true, true]);
    const answers = await Promise.all(clients.map((c) => c.done));
    expect(answers).to.deep.equal([{ status: 200, body: 'a0' }, { status: 200, body: 'a1' }, { status: 200, body: 'a2' }]);
    // The turn ended with the writes: the 0 ms timer set in it had not fired yet.
    expect(order.slice(0, 3)).to.deep.equal(['written 0', 'written 1', 'written 2']);
  });

  it('answers a lone request from an I/O callback in the same turn (before a 0 ms timer set with it)', async () => {
    const writer = new TurnWriter();
    const order: string[] = [];
    server = createServer((_req, res) => {
      setTimeout(() => order.push('timer'), 0);
      writer.started();
      void writer.write(res, 200, undefined, { 'content-length': '2' }, 'ok').then(() => order.push('written'));
      writer.ended();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { done } = get((server.address() as AddressInfo).port);
    expect(await done).to.deep.equal({ status: 200, body: 'ok' });
    await new Promise((r) => setTimeout(r, 5));
    expect(order).to.deep.equal(['written', 'timer']);
  });

  it('writes the answer of the only request in flight at once, and holds answers again once another request starts', async () => {
    const s = await holdingServer();
    server = s.server;
    const clients = [get(s.port), get(s.port)];
    const [first, second] = [await s.next(), await s.next()];
    const writer = new TurnWriter();
    writer.started();
    const alone = writer.write(first.res, 200, undefined, { 'content-length': '5' }, 'alone');
    // Written before write() returned: nothing else could have joined its turn.
    expect(first.res.headersSent).to.equal(true);
    await alone;
    writer.ended();
    writer.started();
    writer.started();
    const held = writer.write(second.res, 200, undefined, { 'content-length': '4' }, 'held');
    expect(second.res.headersSent).to.equal(false);
    await held;
    expect(second.res.headersSent).to.equal(true);
    expect((await Promise.all(clients.map((c) => c.done))).map((a) => a.body)).to.deep.equal(['alone', 'held']);
  });

  it('rejects the answer of the only request in flight that cannot be written', async () => {
    const s = await holdingServer();
    server = s.server;
    const client = get(s.port);
    client.done.catch(() => undefined);
    const held = await s.next();
    const writer = new TurnWriter();
    writer.started();
    const error = await writer.write(held.res, 200, undefined, { 'x-bad': 'line\nbreak' }, 'x').then(() => undefined, (e: unknown) => e);
    expect((error as NodeJS.ErrnoException).code).to.equal('ERR_INVALID_CHAR');
    held.res.destroy();
  });

  it('skips an answer whose client went away while it waited, and settles it', async () => {
    const s = await holdingServer();
    server = s.server;
    const client = get(s.port);
    client.done.catch(() => undefined);
    const held = await s.next();
    client.destroy();
    await new Promise((resolve) => held.res.once('close', resolve));
    const writer = new TurnWriter();
    await writer.write(held.res, 200, undefined, {}, 'late');
    expect(held.res.headersSent).to.equal(false);
  });

  it('rejects the one answer that cannot be written and still writes the others of its turn', async () => {
    const s = await holdingServer();
    server = s.server;
    const good = get(s.port);
    const bad = get(s.port);
    bad.done.catch(() => undefined);
    const [first, second] = [await s.next(), await s.next()];
    const writer = new TurnWriter();
    writer.started();
    writer.started();
    const broken = writer.write(first.res, 200, undefined, { 'x-bad': 'line\nbreak' }, 'x');
    const fine = writer.write(second.res, 200, undefined, { 'content-length': '4' }, 'fine');
    const [b, f] = await Promise.allSettled([broken, fine]);
    expect(b.status).to.equal('rejected');
    expect(((b as PromiseRejectedResult).reason as NodeJS.ErrnoException).code).to.equal('ERR_INVALID_CHAR');
    expect(f.status).to.equal('fulfilled');
    // Which client got which request is the server's business: one of them got the good answer.
    first.res.destroy();
    const answers = await Promise.allSettled([good.done, bad.done]);
    expect(answers.some((a) => a.status === 'fulfilled' && a.value.body === 'fine')).to.equal(true);
  });
});
