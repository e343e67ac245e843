/** The undici transport against a real loopback server: whole and streamed bodies, backpressure, aborts, connection re-use. */
import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { splitUrl, UndiciTransport } from '../../core/transport.js';
import type { AbortSource } from '../../core/abort-source.js';

/** A source as a host's request is one: a flag, a reason and the listeners registered now. */
class TestSource implements AbortSource {
  aborted = false;
  reason: unknown;
  readonly listeners = new Set<() => void>();
  onAbort(listener: () => void): void {
    this.listeners.add(listener);
  }
  offAbort(listener: () => void): void {
    this.listeners.delete(listener);
  }
  abort(reason: Error): void {
    this.aborted = true;
    this.reason = reason;
    for (const listener of [...this.listeners]) listener();
    this.listeners.clear();
  }
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

describe('UndiciTransport', () => {
  let server: Server;
  let base: string;
  let handler: Handler;
  let sockets: Set<Socket>;
  let transport: UndiciTransport;

  before(async () => {
    sockets = new Set();
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => handler(req, res, Buffer.concat(chunks)));
    });
    server.on('connection', (s) => sockets.add(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  beforeEach(() => {
    transport = new UndiciTransport({ connections: 4 });
  });
  afterEach(async () => {
    await transport.close();
  });

  const never = new AbortController().signal;

  it('sends method, path, query, headers and body; reads status, headers and the whole body', async () => {
    let seen: { method?: string; url?: string; header?: string; body?: string } = {};
    handler = (req, res, body) => {
      seen = { method: req.method, url: req.url, header: req.headers['x-test'] as string, body: body.toString() };
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}');
    };
    const reply = await transport.send({ url: `${base}/v1/things?x=1`, method: 'POST', headers: { 'x-test': 'yes' }, body: '{"q":1}' }, never);
    expect(reply.status).to.equal(201);
    expect(reply.headers['content-type']).to.equal('application/json');
    expect(reply.headers['set-cookie']).to.equal('a=1, b=2');
    expect(Buffer.from(await reply.bytes()).toString()).to.equal('{"ok":true}');
    expect(seen).to.deep.equal({ method: 'POST', url: '/v1/things?x=1', header: 'yes', body: '{"q":1}' });
  });

  it('streams an async iterable request body', async () => {
    handler = (_req, res, body) => res.end(body);
    async function* parts() {
      yield Buffer.from('one,');
      await sleep(5);
      yield Buffer.from('two');
    }
    const reply = await transport.send({ url: `${base}/echo`, method: 'POST', headers: {}, body: parts() }, never);
    expect(await reply.text()).to.equal('one,two');
  });

  it('hands over a streamed body chunk by chunk as it arrives', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
      setTimeout(() => res.end('data: 2\n\n'), 50);
    };
    const reply = await transport.send({ url: `${base}/s`, method: 'GET', headers: {} }, never);
    const arrivals: Array<[string, number]> = [];
    const started = Date.now();
    for await (const chunk of reply.body) arrivals.push([Buffer.from(chunk).toString(), Date.now() - started]);
    expect(arrivals.map((a) => a[0]).join('')).to.equal('data: 1\n\ndata: 2\n\n');
    expect(arrivals[0]![1]).to.be.below(40);
  });

  it('applies backpressure: a slow reader still gets every byte of a large body, in order', async () => {
    const total = 4 * 1024 * 1024;
    const block = Buffer.alloc(64 * 1024);
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      let sent = 0;
      let n = 0;
      const more = () => {
        while (sent < total) {
          block.fill(n++ % 251);
          sent += block.length;
          if (!res.write(Buffer.from(block))) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    };
    const reply = await transport.send({ url: `${base}/big`, method: 'GET', headers: {} }, never);
    let received = 0;
    let reads = 0;
    for await (const chunk of reply.body) {
      received += chunk.byteLength;
      if (++reads % 16 === 0) await sleep(1);
    }
    expect(received).to.equal(total);
  });

  it('reads a whole body larger than the backpressure mark', async () => {
    const big = 'b'.repeat(1024 * 1024 + 7);
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(big);
    const reply = await transport.send({ url: `${base}/whole`, method: 'GET', headers: {} }, never);
    await sleep(30); // let chunks queue up before reading
    expect((await reply.bytes()).byteLength).to.equal(big.length);
  });

  it('re-uses the connection for the next call after a whole body and after a dumped one', async () => {
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(1000));
    sockets.clear();
    for (let i = 0; i < 6; i++) await (await transport.send({ url: `${base}/a`, method: 'GET', headers: {} }, never)).bytes();
    await (await transport.send({ url: `${base}/a`, method: 'GET', headers: {} }, never)).dump();
    await (await transport.send({ url: `${base}/a`, method: 'GET', headers: {} }, never)).text();
    // undici waits one event-loop turn before re-using a connection (pipelining 1), so a caller
    // that sends at once alternates between two; never one connection per call.
    expect(sockets.size).to.be.at.most(2);
  });

  it('rejects with the signal reason when aborted before the answer', async () => {
    handler = (_req, res) => setTimeout(() => res.end('late'), 300);
    const abort = new AbortController();
    const pending = transport.send({ url: `${base}/slow`, method: 'GET', headers: {} }, abort.signal);
    setTimeout(() => abort.abort(new Error('client went away')), 20);
    const error = await pending.then(() => undefined, (e: Error) => e);
    expect(error?.message).to.equal('client went away');
  });

  it('rejects at once with an already aborted signal', async () => {
    const error = await transport.send({ url: `${base}/x`, method: 'GET', headers: {} }, AbortSignal.abort(new Error('gone'))).then(() => undefined, (e: Error) => e);
    expect(error?.message).to.equal('gone');
  });

  it('fails the body read when aborted mid-body', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first');
    };
    const abort = new AbortController();
    const reply = await transport.send({ url: `${base}/hang`, method: 'GET', headers: {} }, abort.signal);
    setTimeout(() => abort.abort(new Error('time-out')), 20);
    const error = await reply.bytes().then(() => undefined, (e: Error) => e);
    expect(error?.message).to.equal('time-out');
  });

  it('fails the stream when the server cuts the connection mid-body', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    const reply = await transport.send({ url: `${base}/cut`, method: 'GET', headers: {} }, never);
    const got: string[] = [];
    const error = await (async () => {
      for await (const chunk of reply.body) got.push(Buffer.from(chunk).toString());
    })().then(() => undefined, (e: Error) => e);
    expect(got).to.deep.equal(['data: 1\n\n']);
    expect(error).to.be.instanceOf(Error);
  });

  it('closes the upstream connection when the reader stops early', async () => {
    let closed = false;
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => res.write('data: tick\n\n'), 5);
      res.on('close', () => {
        closed = true;
        clearInterval(timer);
      });
    };
    const reply = await transport.send({ url: `${base}/ticks`, method: 'GET', headers: {} }, never);
    for await (const _ of reply.body) break;
    for (let i = 0; i < 50 && !closed; i++) await sleep(10);
    expect(closed).to.equal(true);
  });

  it('rejects when nothing listens', async () => {
    const error = await transport.send({ url: 'http://127.0.0.1:1/x', method: 'GET', headers: {} }, never).then(() => undefined, (e: Error & { code?: string }) => e);
    expect(error).to.be.instanceOf(Error);
    expect((error as { code?: string }).code).to.equal('ECONNREFUSED');
  });

  describe('with an abort source instead of a signal', () => {
    it('rejects with the source reason when aborted before the answer, and closes the connection', async () => {
      let closed = false;
      handler = (_req, res) => {
        res.on('close', () => (closed = true));
        setTimeout(() => res.end('late'), 300);
      };
      const source = new TestSource();
      const pending = transport.send({ url: `${base}/slow`, method: 'GET', headers: {} }, source);
      expect(source.listeners.size).to.equal(1);
      setTimeout(() => source.abort(new Error('client went away')), 20);
      const error = await pending.then(() => undefined, (e: Error) => e);
      expect(error?.message).to.equal('client went away');
      for (let i = 0; i < 50 && !closed; i++) await sleep(10);
      expect(closed).to.equal(true);
    });

    it('rejects at once with an already aborted source, registering nothing', async () => {
      const source = new TestSource();
      source.abort(new Error('gone'));
      const error = await transport.send({ url: `${base}/x`, method: 'GET', headers: {} }, source).then(() => undefined, (e: Error) => e);
      expect(error?.message).to.equal('gone');
      expect(source.listeners.size).to.equal(0);
    });

    it('fails a stream aborted mid-body and closes its connection', async () => {
      let closed = false;
      handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: 1\n\n');
        res.on('close', () => (closed = true));
      };
      const source = new TestSource();
      const reply = await transport.send({ url: `${base}/hang`, method: 'GET', headers: {} }, source);
      const got: string[] = [];
      const error = await (async () => {
        for await (const chunk of reply.body) {
          got.push(Buffer.from(chunk).toString());
          source.abort(new Error('client went away'));
        }
      })().then(() => undefined, (e: Error) => e);
      expect(got).to.deep.equal(['data: 1\n\n']);
      expect(error?.message).to.equal('client went away');
      for (let i = 0; i < 50 && !closed; i++) await sleep(10);
      expect(closed).to.equal(true);
    });

    it('listens only for the call\'s lifetime: nothing is left after a whole body, a dumped one or an early stop', async () => {
      handler = (_req, res) => res.end('whole');
      const source = new TestSource();
      await (await transport.send({ url: `${base}/a`, method: 'GET', headers: {} }, source)).text();
      expect(source.listeners.size).to.equal(0);
      await (await transport.send({ url: `${base}/b`, method: 'GET', headers: {} }, source)).dump();
      expect(source.listeners.size).to.equal(0);
      handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const timer = setInterval(() => res.write('data: tick\n\n'), 5);
        res.on('close', () => clearInterval(timer));
      };
      const reply = await transport.send({ url: `${base}/ticks`, method: 'GET', headers: {} }, source);
      for await (const _ of reply.body) break;
      expect(source.listeners.size).to.equal(0);
    });

    it('leaves nothing registered when the connection is refused', async () => {
      const source = new TestSource();
      await transport.send({ url: 'http://127.0.0.1:1/x', method: 'GET', headers: {} }, source).catch(() => undefined);
      expect(source.listeners.size).to.equal(0);
    });
  });

  it('splits URLs without a URL object', () => {
    expect(splitUrl('https://api.example.com/v1/chat?x=1#frag')).to.deep.equal({ origin: 'https://api.example.com', path: '/v1/chat?x=1' });
    expect(splitUrl('http://127.0.0.1:8080')).to.deep.equal({ origin: 'http://127.0.0.1:8080', path: '/' });
    expect(splitUrl('http://h?x=1')).to.deep.equal({ origin: 'http://h', path: '/?x=1' });
    expect(() => splitUrl('ftp://h/x')).to.throw(TypeError);
  });
});
