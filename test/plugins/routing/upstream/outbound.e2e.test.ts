/**
 * The outbound host policy end to end: a real gateway with GW_OUTBOUND_DENY / GW_OUTBOUND_ALLOW,
 * mock providers and a webhook / key server on loopback addresses. A refused host answers 403 in
 * the error envelope and its server never sees a connection. Only loopback addresses are used.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, type GatewayOptions } from '../../../../host/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, configHeaders, directHeaders, postJson, startGateway, type TestGateway } from '../../../helpers/gateway.js';

/** A webhook / JWKS stand-in on 127.0.0.2 that counts connections (it must see none). */
interface Counted {
  url: string;
  connections(): number;
  close(): Promise<void>;
}

async function countingServer(host: string): Promise<Counted> {
  let connections = 0;
  const server: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"verdict":true,"keys":[]}'));
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The error a gateway boot fails with (its data folder removed either way). */
async function bootError(options: GatewayOptions & { env: Record<string, string> }): Promise<Error | undefined> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gw-test-'));
  try {
    const gateway = await createGateway({ ...options, env: { GW_DATA_DIR: dataDir, GW_LOG_LEVEL: 'silent', ...options.env } });
    await gateway.close();
    return undefined;
  } catch (e) {
    return e as Error;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

const target = (mock: MockOpenAI, extra: Record<string, unknown> = {}) => ({ provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`, ...extra });

function expectDenied(reply: { status: number; json: any }, message: string): void {
  expect(reply.status, JSON.stringify(reply.json)).to.equal(403);
  expect(reply.json.error).to.deep.equal({ message, type: 'permission_error', param: null, code: 'outbound_host_denied' });
}

describe('outbound host policy end to end', () => {
  let near: MockOpenAI; // 127.0.0.1
  let far: MockOpenAI; // 127.0.0.2
  beforeEach(async () => {
    near = await startMockOpenAI();
    far = await startMockOpenAI({ host: '127.0.0.2' });
  });
  afterEach(async () => {
    await Promise.all([near.close(), far.close()]);
  });

  describe('GW_OUTBOUND_DENY=127.0.0.2/32', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startGateway({ env: { GW_OUTBOUND_DENY: '127.0.0.2/32' } });
    });
    after(async () => {
      await gw.stop();
    });
    const chat = (config: unknown) => postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(config));

    it('answers 403 for a provider on 127.0.0.2, which never sees a connection; 127.0.0.1 still answers', async () => {
      const denied = await chat(target(far));
      expectDenied(denied, 'outbound host "127.0.0.2" is refused: it matches rule "127.0.0.2/32" of GW_OUTBOUND_DENY');
      expect(denied.text).not.to.include('sk-test');
      expect(far.connectionsAccepted()).to.equal(0);
      expect((await chat(target(near))).status).to.equal(200);
    });

    it('refuses in direct mode too (x-gw-custom-host)', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(far));
      expectDenied(reply, 'outbound host "127.0.0.2" is refused: it matches rule "127.0.0.2/32" of GW_OUTBOUND_DENY');
      expect(far.connectionsAccepted()).to.equal(0);
    });

    it('is not retried, even with 403 in on_status_codes (a provider 403 is)', async () => {
      const denied = await chat(target(far, { retry: { attempts: 3, on_status_codes: [403] } }));
      expect(denied.status).to.equal(403);
      expect(denied.headers.get('x-gw-retry-attempt-count')).to.equal('0');
      expect(far.connectionsAccepted()).to.equal(0);
      near.next({ status: 403 }, { status: 403 });
      const retried = await chat(target(near, { retry: { attempts: 3, on_status_codes: [403] } }));
      expect(retried.status).to.equal(200);
      expect(retried.headers.get('x-gw-retry-attempt-count')).to.equal('2');
    });

    it('lets a fallback move on to a permitted target', async () => {
      const reply = await chat({ strategy: { mode: 'fallback' }, targets: [target(far), target(near)] });
      expect(reply.status).to.equal(200);
      expect(reply.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[1]');
      expect(far.connectionsAccepted()).to.equal(0);
      expect(near.requests).to.have.length(1);
    });

    it('refuses the webhook guardrail\'s call (the check fails closed: 446), never reaching the webhook', async () => {
      const hook = await countingServer('127.0.0.2');
      try {
        const reply = await chat(target(near, { input_guardrails: [{ id: 'hook', deny: true, 'default.webhook': { webhookURL: `${hook.url}/check` } }] }));
        expect(reply.status).to.equal(446);
        const check = reply.json.hook_results.before_request_hooks[0].checks[0];
        expect(check.id).to.equal('default.webhook');
        expect(check.verdict).to.equal(false);
        expect(check.data.error).to.equal('outbound host "127.0.0.2" is refused: it matches rule "127.0.0.2/32" of GW_OUTBOUND_DENY');
        expect(hook.connections()).to.equal(0);
        expect(near.requests).to.have.length(0);
      } finally {
        await hook.close();
      }
    });

    it('refuses the jwt guardrail\'s key set fetch (jwksUri), never reaching the key server', async () => {
      const jwks = await countingServer('127.0.0.2');
      try {
        const config = target(near, { input_guardrails: [{ id: 'jwt', deny: true, 'default.jwt': { jwksUri: `${jwks.url}/jwks.json` } }] });
        // A well-formed RS256 token (its signature is never reached: the key set cannot be fetched).
        const token = ['{"alg":"RS256","typ":"JWT","kid":"k1"}', '{"sub":"u"}'].map((p) => Buffer.from(p).toString('base64url')).join('.') + '.c2ln';
        const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(config, { authorization: `Bearer ${token}` }));
        expect(reply.status).to.equal(446);
        const check = reply.json.hook_results.before_request_hooks[0].checks[0];
        expect(check.data.explanation).to.equal('the key set could not be fetched: outbound host "127.0.0.2" is refused: it matches rule "127.0.0.2/32" of GW_OUTBOUND_DENY');
        expect(jwks.connections()).to.equal(0);
      } finally {
        await jwks.close();
      }
    });
  });

  it('GW_OUTBOUND_DENY=127.0.0.1/32 refuses a host name that resolves there (localhost)', async () => {
    const gw = await startGateway({ env: { GW_OUTBOUND_DENY: '127.0.0.1/32' } });
    try {
      const port = new URL(near.url).port;
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders({ ...target(near), custom_host: `http://localhost:${port}/v1` }));
      expectDenied(reply, 'outbound host "localhost" (address 127.0.0.1) is refused: it matches rule "127.0.0.1/32" of GW_OUTBOUND_DENY');
      expect(near.connectionsAccepted()).to.equal(0);
    } finally {
      await gw.stop();
    }
  });

  it('GW_OUTBOUND_ALLOW=127.0.0.1/32 permits 127.0.0.1 only', async () => {
    const gw = await startGateway({ env: { GW_OUTBOUND_ALLOW: '127.0.0.1/32' } });
    try {
      const chat = (config: unknown) => postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(config));
      expect((await chat(target(near))).status).to.equal(200);
      expectDenied(await chat(target(far)), 'outbound host "127.0.0.2" is refused: it matches no rule of GW_OUTBOUND_ALLOW');
      expect(far.connectionsAccepted()).to.equal(0);
    } finally {
      await gw.stop();
    }
  });

  it('an invalid entry stops the boot, naming the variable and the entry', async () => {
    const error = await bootError({ env: { GW_OUTBOUND_ALLOW: '127.0.0.1/32, 10.0.0.0/40' } });
    expect(error?.message).to.equal('GW_OUTBOUND_ALLOW: entry "10.0.0.0/40" is not a host rule: prefix "/40" must be a whole number 0..32');
  });

  describe('route.upstream customHostAllow', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startGateway({ plugins: [{ use: 'route.upstream', options: { customHostAllow: ['127.0.0.1/32', '*.example.test'] } }] });
    });
    after(async () => {
      await gw.stop();
    });
    const chat = (config: unknown) => postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(config));
    const rule = 'is not allowed by route.upstream option customHostAllow (entries: 127.0.0.1/32, *.example.test)';

    it('answers 400 at config validation naming custom_host and the rule; nothing is sent', async () => {
      const reply = await chat(target(far));
      expect(reply.status).to.equal(400);
      expect(reply.json.error).to.deep.equal({
        message: `config.custom_host: host "127.0.0.2" ${rule}`, type: 'invalid_request_error', param: 'custom_host', code: 'invalid_config',
      });
      expect(far.connectionsAccepted()).to.equal(0);
      expect((await chat(target(near))).status).to.equal(200);
    });

    it('names the path of a nested target, and applies to x-gw-custom-host', async () => {
      const nested = await chat({ strategy: { mode: 'fallback' }, targets: [target(near), target(far)] });
      expect(nested.status).to.equal(400);
      expect(nested.json.error.message).to.equal(`config.targets.1.custom_host: host "127.0.0.2" ${rule}`);
      const direct = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(far));
      expect(direct.status).to.equal(400);
      expect(direct.json.error.message).to.equal(`config.custom_host: host "127.0.0.2" ${rule}`);
      expect(far.connectionsAccepted()).to.equal(0);
    });

    it('matches host names by wildcard, not by what they resolve to', async () => {
      const reply = await chat({ ...target(near), custom_host: `http://localhost:${new URL(near.url).port}/v1` });
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.equal(`config.custom_host: host "localhost" ${rule}`);
    });

    it('an empty list forbids custom_host; a bad entry stops the boot', async () => {
      const none = await startGateway({ plugins: [{ use: 'route.upstream', options: { customHostAllow: [] } }] });
      try {
        const reply = await postJson(none.url, '/v1/chat/completions', CHAT_BODY, configHeaders(target(near)));
        expect(reply.status).to.equal(400);
        expect(reply.json.error.message).to.equal('config.custom_host: host "127.0.0.1" is not allowed by route.upstream option customHostAllow (it is empty, so no custom_host is allowed)');
      } finally {
        await none.stop();
      }
      const error = await bootError({ composition: { plugins: [{ use: 'route.upstream', options: { customHostAllow: ['http://127.0.0.1'] } }] }, env: {} });
      expect(error?.message).to.equal(
        'plugin "route.upstream" failed to apply: route.upstream option customHostAllow: entry "http://127.0.0.1" is not a host rule: write a host name or a CIDR range, without scheme or port');
    });
  });
});
