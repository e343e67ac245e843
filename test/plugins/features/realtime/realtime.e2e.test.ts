/**
 * feature.realtime end to end: a real gateway in front of a loopback realtime server (ws), clients
 * using ws (header and subprotocol forms) and the openai SDK's OpenAIRealtimeWS.
 */
import { expect } from 'chai';
import { connect as tcpConnect, createServer } from 'node:net';
import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import RealtimePlugin from '../../../../plugins/features/realtime/index.js';
import { RequestLogsService } from '../../../../plugins/observe/logs/contract.js';
import { startMockRealtime, type MockRealtime } from '../../../fixtures/mock-realtime.js';
import { startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { connect, opened, refused } from './client.js';

const MODEL = 'gpt-realtime';

describe('feature.realtime (end to end)', () => {
  let mock: MockRealtime;
  let gw: TestGateway;
  let wsBase: string;

  before(async () => {
    mock = await startMockRealtime();
    gw = await startGateway({
      plugins: [{ use: RealtimePlugin, options: { handshakeTimeoutMs: 500, maxFrameBytes: 64 * 1024, highWaterBytes: 64 * 1024 } }],
    });
    wsBase = gw.url.replace('http://', 'ws://');
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  const url = (query = `model=${MODEL}`) => `${wsBase}/v1/realtime?${query}`;
  const direct = (extra: Record<string, string> = {}) => ({
    'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': 'openai', authorization: 'Bearer sk-test', 'x-gw-custom-host': `${mock.url}/v1`, ...extra,
  });

  /** The session's row: written once the gateway has seen the client's socket close (a moment after the client did). */
  async function logOf(traceId: string): Promise<Record<string, any>> {
    for (let tries = 0; ; tries++) {
      await gw.gateway.runtime.services.get(RequestLogsService).flush();
      const res = await fetch(`${gw.url}/v1/logs?trace_id=${traceId}`, { headers: { 'x-gw-api-key': TEST_API_KEY } });
      const json = await res.json() as { data: Record<string, any>[] };
      if (json.data.length === 0 && tries < 40) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      expect(json.data, JSON.stringify(json)).to.have.length(1);
      return json.data[0]!;
    }
  }

  describe('sessions', () => {
    it('header form: relays events both ways with the provider key, never the gateway key, and logs usage', async () => {
      const client = opened(await connect(url(), { headers: direct({ 'x-gw-trace-id': 'rt-header', 'openai-beta': 'realtime=v1' }) }));
      expect(client.headers['x-gw-trace-id']).to.equal('rt-header');
      expect(client.headers['x-gw-provider']).to.equal('openai');
      const created = await client.event('session.created');
      expect(created['session']).to.include({ model: MODEL });
      for (let i = 0; i < 2; i++) {
        client.send({ type: 'response.create' });
        const done = await client.event('response.done');
        expect(done['response']['usage']).to.include({ input_tokens: 10, output_tokens: 5 });
      }
      client.ws.close(1000, 'bye');
      expect(await client.closed).to.deep.equal({ code: 1000, reason: 'bye' });
      const [session] = await mock.closedSessions(1);
      expect(session!.closed).to.deep.equal({ code: 1000, reason: 'bye' });

      const handshake = mock.handshakes[0]!;
      expect(handshake.path).to.equal('/v1/realtime');
      expect(handshake.query.get('model')).to.equal(MODEL);
      expect(handshake.headers['authorization']).to.equal('Bearer sk-test');
      expect(handshake.headers['openai-beta']).to.equal('realtime=v1');
      expect(Object.keys(handshake.headers).filter((h) => h.startsWith('x-gw-'))).to.deep.equal([]);
      expect(JSON.stringify(handshake.headers)).not.to.include(TEST_API_KEY);

      const log = await logOf('rt-header');
      expect(log).to.include({ path: '/v1/realtime', endpoint: 'realtime', provider: 'openai', model: MODEL, status: 101, error_code: null });
      expect(log['usage']).to.deep.equal({ prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 });
      expect(log['reason']).to.equal('realtime: closed by client with 1000 (bye)');
      expect(log['latency_ms']).to.be.greaterThan(0);
    });

    it('subprotocol form (browsers): the key comes as openai-insecure-api-key.<key>, the config as a query parameter, and neither goes upstream', async () => {
      const config = JSON.stringify({ provider: 'openai', api_key: 'sk-query', custom_host: `${mock.url}/v1` });
      const client = opened(await connect(url(`model=${MODEL}&x-gw-config=${encodeURIComponent(config)}&X-GW-Trace-Id=ignored&voice=alloy`), {
        protocols: ['realtime', `openai-insecure-api-key.${TEST_API_KEY}`, 'openai-beta.realtime-v1'],
      }));
      expect(client.protocol).to.equal('realtime');
      await client.event('session.created');
      // Binary frames stay binary, text stays text.
      const audio = Buffer.from([0, 1, 2, 250, 251, 252]);
      client.ws.send(audio, { binary: true });
      const echoed = await client.next();
      expect(echoed.binary).to.deep.equal(audio);
      client.send({ type: 'test.echo', text: 'héllo' });
      expect((await client.next()).text).to.deep.equal({ type: 'test.echo', text: 'héllo' });
      client.ws.close(1000);
      await client.closed;

      const handshake = mock.handshakes[0]!;
      expect(handshake.protocols).to.deep.equal(['realtime', 'openai-beta.realtime-v1']);
      expect(handshake.headers['authorization']).to.equal('Bearer sk-query');
      expect([...handshake.query.keys()]).to.deep.equal(['model', 'voice']);
      expect(JSON.stringify(handshake.headers) + handshake.query.toString()).not.to.include(TEST_API_KEY);
    });

    it('works with the openai SDK (OpenAIRealtimeWS) pointed at the gateway', async () => {
      const sdk = new OpenAI({ apiKey: 'sk-sdk', baseURL: `${gw.url}/v1`, maxRetries: 0 });
      // The SDK always dials wss://; the test gateway speaks plain HTTP, so ws is handed a plain TCP connection.
      const rt = new OpenAIRealtimeWS({
        model: MODEL,
        options: {
          headers: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': 'openai', 'x-gw-custom-host': `${mock.url}/v1` },
          createConnection: ((opts: { port: number }) => tcpConnect(Number(opts.port), '127.0.0.1')) as never,
        },
      }, sdk);
      expect(rt.url.protocol).to.equal('wss:');
      const created = new Promise<any>((resolve) => rt.on('session.created', resolve));
      const done = new Promise<any>((resolve) => rt.on('response.done', resolve));
      await new Promise<void>((resolve) => rt.socket.once('open', () => resolve()));
      expect((await created).session.model).to.equal(MODEL);
      rt.send({ type: 'response.create' });
      expect((await done).response.usage).to.include({ input_tokens: 10, output_tokens: 5 });
      rt.close();
      await mock.closedSessions(1);
      expect(mock.handshakes[0]!.headers['authorization']).to.equal('Bearer sk-sdk');
    });

    it('passes close codes on: an upstream close reaches the client with its code and reason', async () => {
      const client = opened(await connect(url(), { headers: direct() }));
      await client.event('session.created');
      client.send({ type: 'test.close', code: 4001, reason: 'session expired' });
      expect(await client.closed).to.deep.equal({ code: 4001, reason: 'session expired' });
    });
  });

  describe('refusals before the switch (plain HTTP, no upstream connection)', () => {
    it('401 without a gateway key', async () => {
      const reply = refused(await connect(url(), { headers: { 'x-gw-provider': 'openai', authorization: 'Bearer sk-test', 'x-gw-custom-host': `${mock.url}/v1` } }));
      expect(reply.status).to.equal(401);
      // Without x-gw-api-key a bearer must be the gateway key itself (as on every inference route).
      expect(reply.body.error.message).to.contain('is not a known gateway key');
      expect(JSON.stringify(reply.body)).not.to.include('sk-test');
      expect(mock.handshakes).to.have.length(0);
    });

    it('401 for an unknown key, in the header or the subprotocol, never echoing it', async () => {
      const inHeader = refused(await connect(url(), { headers: direct({ 'x-gw-api-key': 'gw-wrong-secret' }) }));
      expect(inHeader.status).to.equal(401);
      const inProtocol = refused(await connect(url(), {
        headers: { 'x-gw-provider': 'openai', 'x-gw-custom-host': `${mock.url}/v1` },
        protocols: ['realtime', 'openai-insecure-api-key.gw-wrong-secret'],
      }));
      expect(inProtocol.status).to.equal(401);
      expect(JSON.stringify(inHeader.body) + JSON.stringify(inProtocol.body)).not.to.include('gw-wrong-secret');
      expect(mock.handshakes).to.have.length(0);
    });

    it('426 for a plain GET', async () => {
      const res = await fetch(`${gw.url}/v1/realtime?model=${MODEL}`, { headers: direct() });
      expect(res.status).to.equal(426);
      expect(res.headers.get('upgrade')).to.equal('websocket');
      expect(((await res.json()) as any).error.code).to.equal('upgrade_required');
    });

    it('400 for a provider without a realtime endpoint here, naming it', async () => {
      const reply = refused(await connect(url(), { headers: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': 'anthropic', authorization: 'Bearer sk-ant' } }));
      expect(reply.status).to.equal(400);
      expect(reply.body.error).to.include({ code: 'unsupported_endpoint', message: 'provider anthropic does not support realtime' });
    });

    it('403 when the upstream host is refused by the outbound policy (cloud metadata address)', async () => {
      const reply = refused(await connect(url(), { headers: direct({ 'x-gw-custom-host': 'http://169.254.169.254/v1' }) }));
      expect(reply.status).to.equal(403);
      expect(reply.body.error.code).to.equal('outbound_host_denied');
    });

    it('a host name resolving to a denied address is refused while connecting (1014), before any upstream handshake', async () => {
      const denying = await startGateway({ env: { GW_OUTBOUND_DENY: '127.0.0.0/8,::1/128' } });
      try {
        const port = new URL(mock.url).port;
        const base = `${denying.url.replace('http://', 'ws://')}/v1/realtime?model=${MODEL}`;
        const literal = refused(await connect(base, { headers: direct({ 'x-gw-custom-host': `http://127.0.0.1:${port}/v1` }) }));
        expect(literal.status).to.equal(403);
        const client = opened(await connect(base, { headers: direct({ 'x-gw-custom-host': `http://localhost:${port}/v1` }) }));
        const closed = await client.closed;
        expect(closed.code).to.equal(1014);
        expect(closed.reason).to.match(/^upstream unreachable: outbound host "localhost" \(address (127\.0\.0\.1|::1)\) is refused/);
        expect(mock.handshakes).to.have.length(0);
      } finally {
        await denying.stop();
      }
    });

    it('400 in the error envelope for a malformed handshake', async () => {
      const reply = await rawUpgrade(gw.url, { 'x-gw-api-key': TEST_API_KEY, 'sec-websocket-version': '8' });
      expect(reply).to.match(/^HTTP\/1\.1 400 /);
      expect(reply).to.include('header sec-websocket-version: must be 13');
    });
  });

  describe('failures during a session', () => {
    it('upstream refuses: the client is closed with 1014 and the status; the log says 502', async () => {
      mock.refuseStatus = 401;
      const client = opened(await connect(url(), { headers: direct({ 'x-gw-trace-id': 'rt-refused' }) }));
      expect(await client.closed).to.deep.equal({ code: 1014, reason: 'upstream refused the session: HTTP 401' });
      const log = await logOf('rt-refused');
      expect(log).to.include({ status: 502, error_code: 'bad_gateway' });
    });

    it('upstream unreachable: 1014 with the reason', async () => {
      const port = await closedPort();
      const client = opened(await connect(url(), { headers: direct({ 'x-gw-custom-host': `http://127.0.0.1:${port}/v1` }) }));
      const closed = await client.closed;
      expect(closed.code).to.equal(1014);
      expect(closed.reason).to.match(/^upstream unreachable: .*ECONNREFUSED/);
    });

    it('upstream handshake time-out: 1014 once handshakeTimeoutMs has passed', async () => {
      mock.hang = true;
      const started = performance.now();
      const client = opened(await connect(url(), { headers: direct() }));
      const closed = await client.closed;
      expect(closed.code).to.equal(1014);
      expect(closed.reason).to.include('timed out');
      expect(performance.now() - started).to.be.within(400, 3000);
    });

    it('upstream drops mid-session: the client gets 1014 "upstream connection lost"', async () => {
      const client = opened(await connect(url(), { headers: direct({ 'x-gw-trace-id': 'rt-drop' }) }));
      await client.event('session.created');
      client.send({ type: 'response.create' });
      await client.event('response.done');
      client.send({ type: 'test.drop' });
      expect(await client.closed).to.deep.equal({ code: 1014, reason: 'upstream connection lost' });
      const log = await logOf('rt-drop');
      // The tokens spent before the cut stay on the session's row.
      expect(log).to.include({ status: 101 });
      expect(log['usage']).to.include({ prompt_tokens: 10, completion_tokens: 5 });
      expect(log['reason']).to.match(/^realtime: closed by upstream with 1006/);
    });

    it('client drops: the upstream is closed with 1001', async () => {
      const client = opened(await connect(url(), { headers: direct() }));
      await client.event('session.created');
      client.ws.terminate();
      const [session] = await mock.closedSessions(1);
      expect(session!.closed).to.deep.equal({ code: 1001, reason: 'client went away' });
    });

    it('a client frame over maxFrameBytes closes the client with 1009 and the upstream with 1001', async () => {
      const client = opened(await connect(url(), { headers: direct() }));
      await client.event('session.created');
      client.ws.send(Buffer.alloc(64 * 1024 + 1), { binary: true });
      expect((await client.closed).code).to.equal(1009);
      const [session] = await mock.closedSessions(1);
      expect(session!.closed!.code).to.equal(1001);
      expect(session!.received).to.have.length(0);
    });

    it('an upstream frame over maxFrameBytes closes the client with 1009', async () => {
      const client = opened(await connect(url(), { headers: direct() }));
      await client.event('session.created');
      client.send({ type: 'test.big', bytes: 64 * 1024 + 1 });
      expect(await client.closed).to.deep.equal({ code: 1009, reason: 'upstream sent a frame over maxFrameBytes' });
    });

    it('a slow consumer holds the upstream back (backpressure) and still gets every frame in order', async function () {
      this.timeout(30_000);
      const client = opened(await connect(url(), { headers: direct(), maxPayload: 1024 * 1024 }));
      await client.event('session.created');
      const count = 400;
      const bytes = 60 * 1024;
      client.ws.pause(); // reads nothing until resumed
      client.send({ type: 'test.flood', count, bytes });
      await new Promise((r) => setTimeout(r, 1000));
      // Without backpressure the gateway would have read all 24 MB by now (its buffer towards the
      // client holding them); with it, what it refused to read waits in the upstream's own buffer
      // (loopback socket buffers and the high-water mark take a few MB at most).
      expect(mock.sessions[0]!.socket.bufferedAmount).to.be.greaterThan(12 * 1024 * 1024);
      client.ws.resume();
      for (let i = 0; i < count; i++) {
        const frame = await client.next();
        expect(frame.binary?.byteLength).to.equal(bytes);
      }
      client.ws.close(1000);
      await client.closed;
    });
  });

  it('rate limits run at the upgrade (endpoint_type realtime): 429 before the switch, no upstream connection', async () => {
    const limited = await startGateway();
    try {
      const res = await fetch(`${limited.url}/v1/policies/rate-limits`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY },
        body: JSON.stringify({ conditions: [{ key: 'endpoint_type', value: 'realtime' }], group_by: [{ key: 'api_key' }], type: 'requests', unit: 'rpm', value: 1 }),
      });
      expect(res.status, await res.text()).to.equal(200);
      const base = `${limited.url.replace('http://', 'ws://')}/v1/realtime?model=${MODEL}`;
      const first = opened(await connect(base, { headers: direct() }));
      await first.event('session.created');
      first.ws.close(1000);
      await first.closed;
      const second = refused(await connect(base, { headers: direct() }));
      expect(second.status).to.equal(429);
      expect(second.body.error.code).to.equal('rate_limited');
      expect(mock.handshakes).to.have.length(1);
      // Chat is not under the realtime policy.
      const chat = await fetch(`${limited.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': 'openai', authorization: 'Bearer sk', 'x-gw-custom-host': 'http://127.0.0.1:1/v1' }, body: '{}' });
      expect(chat.status).not.to.equal(429);
    } finally {
      await limited.stop();
    }
  });

  describe('time-outs and shutdown', () => {
    it('closes a session idle for idleTimeoutMs with 1001 on both sides', async () => {
      const idle = await startGateway({ plugins: [{ use: RealtimePlugin, options: { idleTimeoutMs: 300 } }] });
      try {
        const client = opened(await connect(`${idle.url.replace('http://', 'ws://')}/v1/realtime?model=${MODEL}`, { headers: direct() }));
        await client.event('session.created');
        expect(await client.closed).to.deep.equal({ code: 1001, reason: 'idle for 300 ms' });
        const [session] = await mock.closedSessions(1);
        expect(session!.closed).to.deep.equal({ code: 1001, reason: 'idle for 300 ms' });
      } finally {
        await idle.stop();
      }
    });

    it('a gateway stop closes live sessions with 1001 and completes', async () => {
      const other = await startGateway();
      const client = opened(await connect(`${other.url.replace('http://', 'ws://')}/v1/realtime?model=${MODEL}`, { headers: direct() }));
      await client.event('session.created');
      const stopped = other.stop();
      expect(await client.closed).to.deep.equal({ code: 1001, reason: 'the gateway is shutting down' });
      await stopped;
      const [session] = await mock.closedSessions(1);
      expect(session!.closed!.code).to.equal(1001);
    });
  });
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An upgrade request written by hand (for handshakes a client library would not send); the raw answer. */
async function rawUpgrade(base: string, headers: Record<string, string>): Promise<string> {
  const { connect: tcp } = await import('node:net');
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = tcp(Number(port), '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (c: string) => (text += c));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
    const lines = Object.entries({ host: `127.0.0.1:${port}`, connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', ...headers })
      .map(([k, v]) => `${k}: ${v}`).join('\r\n');
    socket.write(`GET /v1/realtime?model=${MODEL} HTTP/1.1\r\n${lines}\r\n\r\n`);
  });
}
