/**
 * The outbound host policy in the transport, against real loopback servers: a refused host is a
 * 403 GatewayError and its server never sees a connection. Only loopback addresses are used.
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayError, HostRules } from '../../core/index.js';
import { OutboundPolicy } from '../../core/outbound-policy.js';
import { UndiciTransport } from '../../core/transport.js';

interface Counted {
  server: Server;
  port: number;
  connections: number;
  requests: number;
}

async function listen(host: string, answer: (port: number) => { status: number; headers?: Record<string, string> } = () => ({ status: 200 })): Promise<Counted> {
  const counted = { connections: 0, requests: 0 } as Counted;
  counted.server = createServer((_req, res) => {
    counted.requests++;
    const { status, headers } = answer(counted.port);
    res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end('hello');
  });
  counted.server.on('connection', () => counted.connections++);
  await new Promise<void>((resolve) => counted.server.listen(0, host, resolve));
  counted.port = (counted.server.address() as AddressInfo).port;
  return counted;
}

async function stop(s: Counted): Promise<void> {
  s.server.closeAllConnections();
  await new Promise((resolve) => s.server.close(resolve));
}

function transportWith(deny?: string, allow?: string): UndiciTransport {
  return new UndiciTransport({
    connections: 4,
    policy: new OutboundPolicy({
      deny: deny === undefined ? undefined : HostRules.parse(deny, 'GW_OUTBOUND_DENY'),
      allow: allow === undefined ? undefined : HostRules.parse(allow, 'GW_OUTBOUND_ALLOW'),
    }),
  });
}

const never = new AbortController().signal;

async function get(transport: UndiciTransport, url: string): Promise<{ status: number; text: string; headers: Record<string, string> }> {
  const reply = await transport.send({ url, method: 'GET', headers: {} }, never);
  return { status: reply.status, text: await reply.text(), headers: reply.headers };
}

async function refusal(transport: UndiciTransport, url: string): Promise<GatewayError> {
  try {
    await transport.send({ url, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"secret":"sk-never-sent"}' }, never);
  } catch (e) {
    expect(e).to.be.instanceOf(GatewayError);
    return e as GatewayError;
  }
  throw new Error(`${url} was not refused`);
}

describe('UndiciTransport with an outbound host policy', () => {
  let first: Counted; // 127.0.0.1
  let second: Counted; // 127.0.0.2
  let transports: UndiciTransport[] = [];
  const make = (deny?: string, allow?: string) => {
    const t = transportWith(deny, allow);
    transports.push(t);
    return t;
  };

  beforeEach(async () => {
    first = await listen('127.0.0.1');
    second = await listen('127.0.0.2');
  });
  afterEach(async () => {
    await Promise.all(transports.map((t) => t.close()));
    transports = [];
    await Promise.all([stop(first), stop(second)]);
  });

  it('reaches both loopback servers without rules (the control)', async () => {
    const t = make();
    expect((await get(t, `http://127.0.0.1:${first.port}/`)).status).to.equal(200);
    expect((await get(t, `http://127.0.0.2:${second.port}/`)).status).to.equal(200);
    expect([first.connections, second.connections]).to.deep.equal([1, 1]);
  });

  it('refuses a denied IP literal with a 403 naming the rule, and never connects to it', async () => {
    const t = make('127.0.0.2/32');
    const e = await refusal(t, `http://127.0.0.2:${second.port}/v1/chat/completions`);
    expect(e.status).to.equal(403);
    expect(e.code).to.equal('outbound_host_denied');
    expect(e.message).to.equal('outbound host "127.0.0.2" is refused: it matches rule "127.0.0.2/32" of GW_OUTBOUND_DENY');
    expect(e.message).not.to.include('sk-never-sent');
    // Asking again (a fresh connection attempt each time) is refused again.
    expect((await refusal(t, `http://127.0.0.2:${second.port}/`)).code).to.equal('outbound_host_denied');
    expect(second.connections).to.equal(0);
    expect((await get(t, `http://127.0.0.1:${first.port}/`)).status).to.equal(200);
  });

  it('refuses the IPv4-mapped IPv6 spelling of a denied address', async () => {
    const t = make('127.0.0.2/32');
    const e = await refusal(t, `http://[::ffff:127.0.0.2]:${second.port}/`);
    expect(e.message).to.match(/^outbound host "::ffff:7f00:2" is refused: it matches rule "127\.0\.0\.2\/32" of GW_OUTBOUND_DENY$/);
    expect(second.connections).to.equal(0);
  });

  it('refuses a host name whose resolved address is denied (localhost → 127.0.0.1)', async () => {
    const t = make('127.0.0.1/32');
    const e = await refusal(t, `http://localhost:${first.port}/`);
    expect(e.message).to.equal('outbound host "localhost" (address 127.0.0.1) is refused: it matches rule "127.0.0.1/32" of GW_OUTBOUND_DENY');
    expect(first.connections).to.equal(0);
  });

  it('refuses a host name denied by name before it is resolved', async () => {
    const t = make('localhost');
    const e = await refusal(t, `http://LocalHost:${first.port}/`);
    expect(e.message).to.equal('outbound host "localhost" is refused: it matches rule "localhost" of GW_OUTBOUND_DENY');
    expect(first.connections).to.equal(0);
  });

  it('with an allow list of 127.0.0.1 only: 127.0.0.1 and localhost pass, 127.0.0.2 is refused', async () => {
    const t = make(undefined, '127.0.0.1/32');
    expect((await get(t, `http://127.0.0.1:${first.port}/`)).text).to.equal('hello');
    expect((await get(t, `http://localhost:${first.port}/`)).text).to.equal('hello');
    const e = await refusal(t, `http://127.0.0.2:${second.port}/`);
    expect(e.message).to.equal('outbound host "127.0.0.2" is refused: it matches no rule of GW_OUTBOUND_ALLOW');
    expect(second.connections).to.equal(0);
  });

  it('follows no redirect: a 302 to a denied host comes back as it is, and that host is never reached', async () => {
    await stop(first);
    first = await listen('127.0.0.1', () => ({ status: 302, headers: { location: `http://127.0.0.2:${second.port}/metadata` } }));
    const t = make('127.0.0.2/32');
    const reply = await get(t, `http://127.0.0.1:${first.port}/`);
    expect(reply.status).to.equal(302);
    expect(reply.headers['location']).to.equal(`http://127.0.0.2:${second.port}/metadata`);
    expect(second.connections).to.equal(0);
  });

  it('a refusal does not stall other requests on the same transport', async () => {
    const t = make('127.0.0.2/32');
    const results = await Promise.allSettled([
      ...Array.from({ length: 5 }, () => get(t, `http://127.0.0.2:${second.port}/`)),
      ...Array.from({ length: 5 }, () => get(t, `http://127.0.0.1:${first.port}/`)),
    ]);
    expect(results.slice(0, 5).map((r) => r.status)).to.deep.equal(Array(5).fill('rejected'));
    expect(results.slice(5).map((r) => (r.status === 'fulfilled' ? r.value.status : 0))).to.deep.equal(Array(5).fill(200));
    expect(second.connections).to.equal(0);
  });
});
