/**
 * How the node front end writes a stream: a provider's stream (whose first chunk the gateway awaits)
 * leaves with its head and first event in one write, before the provider sends its second event; a
 * stream whose first chunk is not at hand (a proxied relay that stays quiet) gets its head at once.
 * A real gateway, a loopback upstream that sends each event only when the test says, and a raw
 * socket client that sees every read.
 */
import { expect } from 'chai';
import sinon from 'sinon';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import ProxyPlugin from '../../plugins/routing/proxy/index.js';
import { startGateway, TEST_API_KEY, type TestGateway } from '../helpers/gateway.js';
import { rawConnect } from '../helpers/raw-http.js';

const chunk = (content: string, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;
const EVENTS = [chunk('one'), chunk('two'), chunk('', 'stop'), 'data: [DONE]\n\n'];

/** An SSE upstream that writes its head at once and each event when `release()` is called. */
interface GatedUpstream {
  url: string;
  release(): void;
  close(): Promise<void>;
}

async function gatedUpstream(): Promise<GatedUpstream> {
  let open: { res: ServerResponse; sent: number } | undefined;
  let credit = 0;
  const pump = () => {
    while (open && credit > 0 && open.sent < EVENTS.length) {
      credit--;
      open.res.write(EVENTS[open.sent++]);
      if (open.sent === EVENTS.length) open.res.end();
    }
  };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.flushHeaders();
      open = { res, sent: 0 };
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    release: () => {
      credit++;
      pump();
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** A raw client: every read of the socket, as it came. */
async function rawClient(url: string, method: string, path: string, headers: Record<string, string>, body = '') {
  const reads: string[] = [];
  let wake: (() => void) | undefined;
  const head = [`${method} ${path} HTTP/1.1`, 'host: 127.0.0.1', 'connection: close', `content-length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n');
  const { socket, closed } = await rawConnect(url, `${head}\r\n\r\n${body}`);
  socket.on('data', (c: Buffer) => {
    reads.push(c.toString('utf8'));
    wake?.();
  });
  /** Resolves once `n` reads arrived. */
  const until = (n: number) => new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`only ${reads.length} reads, waited for ${n}: ${JSON.stringify(reads)}`)), 5000);
    const check = () => {
      if (reads.length < n) return;
      clearTimeout(timer);
      wake = undefined;
      resolve();
    };
    wake = check;
    check();
  });
  return { reads, until, closed };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

/**
 * The writes node makes on the gateway's side of client connections (the client runs in this
 * process too, so its reads cannot tell one write from two made in the same turn).
 */
function watchWrites(gatewayUrl: string): { writes: string[]; restore(): void } {
  const port = Number(new URL(gatewayUrl).port);
  const writes: string[] = [];
  const text = (c: { chunk: unknown }) => (typeof c.chunk === 'string' ? c.chunk : Buffer.from(c.chunk as Uint8Array).toString('utf8'));
  const proto = Socket.prototype as unknown as Record<'_write' | '_writev', (...args: unknown[]) => void>;
  const single = sinon.stub(proto, '_write').callsFake(function (this: Socket, ...args: unknown[]) {
    if (this.localPort === port) writes.push(text({ chunk: args[0] }));
    return single.wrappedMethod.apply(this, args);
  });
  const vector = sinon.stub(proto, '_writev').callsFake(function (this: Socket, ...args: unknown[]) {
    if (this.localPort === port) writes.push((args[0] as { chunk: unknown }[]).map(text).join(''));
    return vector.wrappedMethod.apply(this, args);
  });
  return { writes, restore: () => sinon.restore() };
}

describe('host: writing streams', () => {
  let gw: TestGateway;
  let upstream: GatedUpstream;

  beforeEach(async () => {
    upstream = await gatedUpstream();
    gw = await startGateway({ plugins: [ProxyPlugin] });
  });
  afterEach(async () => {
    await gw?.stop();
    await upstream?.close();
  });

  it('writes a provider stream\'s head and first event together, before the provider sends its second event', async () => {
    const body = JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const client = await rawClient(gw.url, 'POST', '/v1/chat/completions', {
      'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': 'openai', authorization: 'Bearer sk-test',
      'x-gw-custom-host': `${upstream.url}/v1`,
    }, body);
    await settle();
    expect(client.reads, 'nothing before the first event (it decides between an answer and a fallback)').to.deep.equal([]);
    const watch = watchWrites(gw.url);
    try {
      upstream.release();
      await client.until(1);
      await settle();
    } finally {
      watch.restore();
    }
    expect(watch.writes, 'one write: head and first event').to.have.length(1);
    expect(watch.writes[0]).to.match(/^HTTP\/1\.1 200 /).and.to.contain('text/event-stream').and.to.contain('"content":"one"');
    expect(client.reads.join('')).to.equal(watch.writes[0]);

    upstream.release();
    await client.until(2);
    expect(client.reads[1]).to.contain('"content":"two"');
    upstream.release();
    upstream.release();
    const whole = (await client.closed).text;
    expect(whole).to.contain('finish_reason":"stop"').and.to.contain('data: [DONE]');
  });

  it('sends the head at once when a stream\'s first chunk is not at hand (a quiet proxied event stream)', async () => {
    const client = await rawClient(gw.url, 'GET', '/v1/events', {
      'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify({ provider: 'openai', api_key: 'sk-test', custom_host: `${upstream.url}/v1` }),
    });
    await client.until(1);
    expect(client.reads[0]).to.match(/^HTTP\/1\.1 200 /).and.to.contain('text/event-stream');
    expect(client.reads[0]!.slice(client.reads[0]!.indexOf('\r\n\r\n') + 4)).to.equal('');

    upstream.release();
    await client.until(2);
    expect(client.reads.slice(1).join('')).to.contain('"content":"one"');
    for (let i = 1; i < EVENTS.length; i++) upstream.release();
    expect((await client.closed).text).to.contain('data: [DONE]');
  });
});
