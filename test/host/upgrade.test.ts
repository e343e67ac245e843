/**
 * The host's protocol-switch path (RouteDef.upgrade, kernel.handleUpgrade): onRequest runs first,
 * refusals are plain HTTP in the error envelope on the raw socket, routes without `upgrade` and
 * unknown paths are refused, and a handler may take the socket over.
 */
import { expect } from 'chai';
import { connect } from 'node:net';
import { definePlugin, Type } from '../../core/index.js';
import { startGateway, TEST_API_KEY, type TestGateway } from '../helpers/gateway.js';

/** A route whose upgrade handler answers the switch itself with a fixed line protocol. */
const Upgrader = definePlugin({
  id: 'test.upgrader',
  options: Type.Object({}),
  apply(api) {
    api.registries.routes.add({
      method: 'GET', path: '/v1/test-upgrade', body: 'none',
      handler: async () => ({ status: 200, headers: {}, raw: 'plain' }),
      upgrade: async (ctx, upgrade) => {
        if (ctx.request.query.get('refuse') === '1') return { status: 409, headers: { 'content-type': 'text/plain' }, raw: 'not now' };
        const socket = upgrade.socket as import('node:stream').Duplex;
        socket.end(`HTTP/1.1 101 Switching Protocols\r\nupgrade: test\r\nconnection: Upgrade\r\nx-key-id: ${ctx.principal?.keyId ?? ''}\r\n\r\nhello`);
        return undefined;
      },
    });
  },
});

function rawUpgrade(url: string, path: string, headers: Record<string, string> = {}): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (c: string) => (text += c));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
    const lines = Object.entries({ host: `127.0.0.1:${port}`, connection: 'Upgrade', upgrade: 'test', ...headers }).map(([k, v]) => `${k}: ${v}`).join('\r\n');
    socket.write(`GET ${path} HTTP/1.1\r\n${lines}\r\n\r\n`);
  });
}

function bodyOf(raw: string): any {
  return JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
}

describe('host: protocol upgrades', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway({ plugins: [Upgrader] });
  });
  after(async () => gw?.stop());

  it('runs onRequest first: no key, 401 in the envelope, and the connection is closed', async () => {
    const raw = await rawUpgrade(gw.url, '/v1/test-upgrade');
    expect(raw).to.match(/^HTTP\/1\.1 401 Unauthorized\r\n/);
    expect(raw.toLowerCase()).to.include('connection: close');
    expect(bodyOf(raw).error.code).to.equal('invalid_api_key');
  });

  it('hands the socket to the route once the key passed', async () => {
    const raw = await rawUpgrade(gw.url, '/v1/test-upgrade', { 'x-gw-api-key': TEST_API_KEY });
    expect(raw).to.match(/^HTTP\/1\.1 101 Switching Protocols\r\n/);
    expect(raw).to.match(/x-key-id: \S+/);
    expect(raw.endsWith('hello')).to.equal(true);
  });

  it('writes a refusal of the handler as HTTP with its status and body', async () => {
    const raw = await rawUpgrade(gw.url, '/v1/test-upgrade?refuse=1', { 'x-gw-api-key': TEST_API_KEY });
    expect(raw).to.match(/^HTTP\/1\.1 409 Conflict\r\n/);
    expect(raw).to.include('content-length: 7');
    expect(raw.endsWith('\r\n\r\nnot now')).to.equal(true);
  });

  it('refuses an upgrade on a route that does not switch protocols (400 upgrade_not_supported)', async () => {
    const raw = await rawUpgrade(gw.url, '/v1/chat/completions', { 'x-gw-api-key': TEST_API_KEY });
    expect(raw).to.match(/^HTTP\/1\.1 405 /); // GET is not a method of that route
    const onPost = await rawUpgrade(gw.url, '/v1/models', { 'x-gw-api-key': TEST_API_KEY });
    expect(onPost).to.match(/^HTTP\/1\.1 400 /);
    expect(bodyOf(onPost).error).to.include({ code: 'upgrade_not_supported', message: 'GET /v1/models does not switch protocols' });
  });

  it('answers 404 in the envelope for an unknown path', async () => {
    const raw = await rawUpgrade(gw.url, '/v1/nowhere', { 'x-gw-api-key': TEST_API_KEY });
    expect(raw).to.match(/^HTTP\/1\.1 404 /);
    expect(bodyOf(raw).error.code).to.equal('route_not_found');
  });
});
