/** agents.mcp-servers: nothing the gateway logs (trace level, access log on) holds an upstream secret, failures included. */
import { expect } from 'chai';
import { createLogger } from '../../../../core/index.js';
import { startTokenServer, type TokenServer } from '../../../fixtures/oauth2-token-server.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { call, principal, registryOf, startRegistry } from './harness.js';

const TOKEN = 'logged-never-token-0123';
const HEADER_VALUE = 'logged-never-header-4567';
const CLIENT_SECRET = 'logged-never-client-89ab';
const MAPPED = 'logged-never-mapped-cdef';

describe('agents.mcp-servers: logs', () => {
  let gw: TestGateway;
  let idp: TokenServer;
  const lines: string[] = [];

  before(async () => {
    idp = await startTokenServer({ client: CLIENT_SECRET });
    gw = await startRegistry({
      env: { GW_SECRET_REF_LOGGED: MAPPED },
      logger: createLogger('trace', { write: (line: string) => void lines.push(line) }),
    });
  });
  after(async () => {
    await gw?.stop();
    await idp?.close();
  });

  it('never logs a token, header value, client secret or mapped secret', async () => {
    const url = 'http://127.0.0.1:9/mcp';
    const bodies = [
      { slug: 'l-bearer', url, auth: { type: 'bearer', token: TOKEN } },
      { slug: 'l-headers', url, auth: { type: 'headers', headers: { 'X-Key': HEADER_VALUE } } },
      { slug: 'l-oauth', url, auth: { type: 'oauth2_client_credentials', token_url: idp.url, client_id: 'client', client_secret: CLIENT_SECRET } },
      { slug: 'l-mapped', url, auth: { type: 'bearer' }, secret_mappings: [{ target_field: 'auth.token', secret_reference: 'GW_SECRET_REF_LOGGED' }] },
    ];
    for (const body of bodies) expect((await call(gw, 'POST', '/v1/mcp-servers', body)).status).to.equal(200);
    // Refused writes echo nothing of the secret either.
    const refused = await call(gw, 'POST', '/v1/mcp-servers', { slug: 'l-bad', url, auth: { type: 'headers', headers: { Host: HEADER_VALUE } } });
    expect(refused.status).to.equal(400);
    expect(refused.text).to.not.contain(HEADER_VALUE);
    await call(gw, 'PUT', '/v1/mcp-servers/l-bearer', { auth: { type: 'bearer', token: TOKEN + 'x' } });
    const registry = registryOf(gw);
    const caller = principal();
    for (const slug of ['l-bearer', 'l-headers', 'l-oauth', 'l-mapped']) {
      await registry.upstreamHeaders(registry.find(slug, caller)!, caller, AbortSignal.timeout(2000));
    }
    idp.answer = 'invalid_client';
    registry.forgetToken(registry.find('l-oauth', caller)!.id);
    const failed = await registry.upstreamHeaders(registry.find('l-oauth', caller)!, caller, AbortSignal.timeout(2000)).catch((e: Error) => e);
    expect(failed).to.be.instanceOf(Error);
    await call(gw, 'GET', '/v1/mcp-servers');
    expect(lines.length).to.be.greaterThan(5);
    const all = lines.join('\n');
    expect(all).to.contain('/v1/mcp-servers');
    for (const secret of [TOKEN, HEADER_VALUE, CLIENT_SECRET, MAPPED, 'tok-1']) expect(all).to.not.contain(secret);
  });
});
