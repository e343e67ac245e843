/**
 * agents.mcp-servers: `upstreamHeaders` for each auth type, OAuth2 client credentials against a
 * loopback token endpoint (caching, sharing, expiry, forgetToken, failures), and secret mappings.
 */
import { expect } from 'chai';
import type { GatewayError } from '../../../../core/index.js';
import type { McpServerInfo, McpServers } from '../../../../plugins/agents/mcp-servers/contract.js';
import { startTokenServer, type TokenServer } from '../../../fixtures/oauth2-token-server.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { call, principal, registryOf, startRegistry } from './harness.js';

const URL = 'http://127.0.0.1:9/mcp';
const CLIENT_SECRET = 'cs-very-secret+/=&value';

describe('agents.mcp-servers: upstream headers', () => {
  let gw: TestGateway;
  let registry: McpServers;
  let idp: TokenServer;
  const caller = principal();
  const signal = () => AbortSignal.timeout(5000);

  const register = async (slug: string, body: Record<string, unknown>): Promise<McpServerInfo> => {
    const res = await call(gw, 'POST', '/v1/mcp-servers', { slug, url: URL, ...body });
    expect(res.status, res.text).to.equal(200);
    return registry.find(slug, caller)!;
  };
  const headersOf = (info: McpServerInfo) => registry.upstreamHeaders(info, caller, signal());
  const failure = async (info: McpServerInfo): Promise<GatewayError> => {
    try {
      await headersOf(info);
    } catch (e) {
      return e as GatewayError;
    }
    throw new Error('upstreamHeaders did not fail');
  };
  const oauth = (extra: Record<string, unknown> = {}) => ({
    auth: { type: 'oauth2_client_credentials', token_url: idp.url, client_id: 'gw-client', client_secret: CLIENT_SECRET, ...extra },
  });

  before(async () => {
    idp = await startTokenServer({ 'gw-client': CLIENT_SECRET });
    gw = await startRegistry({
      env: { GW_SECRET_REF_MCP_TOKEN: 'mapped-token-value', GW_SECRET_REF_MCP_KEY: 'mapped-key', GW_SECRET_REF_MCP_CS: CLIENT_SECRET, GW_SECRET_REF_JSON: '"from-json"', GW_SECRET_REF_BAD: 'a\r\nb' },
      options: { tokenRefreshMarginMs: 60_000, tokenTimeoutMs: 1000 },
    });
    registry = registryOf(gw);
  });
  after(async () => {
    await gw?.stop();
    await idp?.close();
  });
  beforeEach(() => {
    idp.answer = 'ok';
    idp.expiresIn = 3600;
    idp.delayMs = 0;
  });

  describe('stored credentials', () => {
    it('none and user_bearer add no header', async () => {
      expect(await headersOf(await register('h-none', {}))).to.deep.equal({});
      expect(await headersOf(await register('h-user', { auth: { type: 'user_bearer' } }))).to.deep.equal({});
      expect(registry.find('h-user', caller)!.authType).to.equal('user_bearer');
    });

    it('bearer sends Authorization: Bearer with the stored token', async () => {
      const info = await register('h-bearer', { auth: { type: 'bearer', token: 'upstream-token-123456' } });
      expect(await headersOf(info)).to.deep.equal({ authorization: 'Bearer upstream-token-123456' });
    });

    it('headers sends the stored headers (names lower-cased)', async () => {
      const info = await register('h-headers', { auth: { type: 'headers', headers: { 'X-Api-Key': 'key-1', 'X-Tenant': 'acme' } } });
      expect(await headersOf(info)).to.deep.equal({ 'x-api-key': 'key-1', 'x-tenant': 'acme' });
    });

    it('answers the current revision after an update, and 404 once the server is gone', async () => {
      const info = await register('h-changing', { auth: { type: 'bearer', token: 'first-token-0000000' } });
      await call(gw, 'PUT', '/v1/mcp-servers/h-changing', { auth: { type: 'bearer', token: 'second-token-000000' } });
      expect(registry.find('h-changing', caller)!.revision).to.equal(info.revision + 1);
      expect(await headersOf(info)).to.deep.equal({ authorization: 'Bearer second-token-000000' });
      await call(gw, 'DELETE', '/v1/mcp-servers/h-changing');
      const gone = await failure(info);
      expect(gone.status).to.equal(404);
      expect(registry.byId(info.id)).to.equal(undefined);
    });
  });

  describe('OAuth2 client credentials', () => {
    it('requests a token with HTTP Basic client authentication and caches it', async () => {
      const before = idp.requests.length;
      const info = await register('o-basic', oauth({ scope: 'tools:read tools:call', audience: 'https://mcp.example.com' }));
      const first = await headersOf(info);
      expect(first.authorization).to.match(/^Bearer tok-\d+$/);
      expect(await headersOf(info)).to.deep.equal(first);
      expect(idp.requests.length - before).to.equal(1);
      const seen = idp.requests.at(-1)!;
      expect(seen).to.deep.include({ via: 'basic', clientId: 'gw-client', clientSecret: CLIENT_SECRET, contentType: 'application/x-www-form-urlencoded' });
      expect(seen.form).to.deep.equal({ grant_type: 'client_credentials', scope: 'tools:read tools:call', audience: 'https://mcp.example.com' });
    });

    it('sends the client in the form with client_secret_post', async () => {
      const info = await register('o-post', oauth({ token_endpoint_auth_method: 'client_secret_post' }));
      expect((await headersOf(info)).authorization).to.match(/^Bearer tok-/);
      const seen = idp.requests.at(-1)!;
      expect(seen.via).to.equal('post');
      expect(seen.form).to.deep.equal({ grant_type: 'client_credentials', client_id: 'gw-client', client_secret: CLIENT_SECRET });
    });

    it('shares one token request between concurrent callers', async () => {
      const info = await register('o-shared', oauth());
      idp.delayMs = 100;
      const before = idp.requests.length;
      const all = await Promise.all(Array.from({ length: 8 }, () => headersOf(info)));
      expect(idp.requests.length - before).to.equal(1);
      expect(new Set(all.map((h) => h.authorization)).size).to.equal(1);
    });

    it('requests a new token once the cached one nears expiry', async () => {
      idp.expiresIn = 1; // margin capped at half the life: refreshed after 500 ms
      const info = await register('o-expiring', oauth());
      const first = await headersOf(info);
      expect(await headersOf(info)).to.deep.equal(first);
      await new Promise((r) => setTimeout(r, 600));
      const second = await headersOf(info);
      expect(second.authorization).to.not.equal(first.authorization);
    });

    it('accepts expires_in as a numeric string and assumes a lifetime when it is absent', async () => {
      idp.expiresIn = '3600';
      const a = await register('o-string-expiry', oauth());
      const before = idp.requests.length;
      await headersOf(a);
      await headersOf(a);
      idp.expiresIn = undefined;
      const b = await register('o-no-expiry', oauth());
      await headersOf(b);
      await headersOf(b);
      expect(idp.requests.length - before).to.equal(2);
    });

    it('forgetToken drops the cached token: the next call requests a new one', async () => {
      const info = await register('o-forget', oauth());
      const first = await headersOf(info);
      const before = idp.requests.length;
      registry.forgetToken(info.id);
      const second = await headersOf(info);
      expect(idp.requests.length - before).to.equal(1);
      expect(second.authorization).to.not.equal(first.authorization);
      expect(await headersOf(info)).to.deep.equal(second);
    });

    it('an update of the server drops its token', async () => {
      const info = await register('o-updated', oauth());
      await headersOf(info);
      const before = idp.requests.length;
      await call(gw, 'PUT', '/v1/mcp-servers/o-updated', { auth: { ...oauth().auth, scope: 'narrower' } });
      await headersOf(registry.find('o-updated', caller)!);
      expect(idp.requests.length - before).to.equal(1);
      expect(idp.requests.at(-1)!.form['scope']).to.equal('narrower');
    });

    const failures: [string, (s: TokenServer) => void, string][] = [
      ['a refused client (401)', (s) => { s.answer = 'invalid_client'; }, 'the token endpoint answered 401 (invalid_client)'],
      ['a server error (500)', (s) => { s.answer = 'server_error'; }, 'the token endpoint answered 500'],
      ['an answer that is not JSON', (s) => { s.answer = 'garbage'; }, 'the token endpoint answered something that is not a JSON object'],
      ['an answer without access_token', (s) => { s.answer = 'no_token'; }, 'the token endpoint answered no usable access_token'],
      ['a token type other than Bearer', (s) => { s.answer = 'mac_token'; }, 'the token endpoint answered a token_type other than Bearer'],
      ['an oversized answer', (s) => { s.answer = 'huge'; }, 'the token endpoint answered something that is not a JSON object'],
      ['no answer in time', (s) => { s.delayMs = 1500; }, 'no answer within 1000 ms'],
    ];
    for (const [what, arrange, why] of failures) {
      it(`answers 502 naming the server, and nothing of the secret or the endpoint's body, on ${what}`, async () => {
        const slug = `o-fail-${failures.findIndex((f) => f[0] === what)}`;
        const info = await register(slug, oauth());
        arrange(idp);
        const error = await failure(info);
        expect(error.status).to.equal(502);
        expect(error.message).to.equal(`MCP server "${slug}": OAuth2 token request failed: ${why}`);
        const shown = JSON.stringify(error.toEnvelope());
        for (const secret of [CLIENT_SECRET, 'database down', 'is unknown', 'login here', 'tok-']) expect(shown).to.not.include(secret);
      });
    }

    it('answers 502 when the token endpoint cannot be reached', async () => {
      const info = await register('o-unreachable', { auth: { ...oauth().auth, token_url: 'http://127.0.0.1:9/token' } });
      const error = await failure(info);
      expect(error.status).to.equal(502);
      expect(error.message).to.equal('MCP server "o-unreachable": OAuth2 token request failed: the token endpoint is unreachable');
    });

    it('answers 502 when the outbound host rules refuse the token endpoint', async () => {
      const info = await register('o-denied', { auth: { ...oauth().auth, token_url: 'http://169.254.169.254/latest/token' } });
      const error = await failure(info);
      expect(error.status).to.equal(502);
      expect(error.message).to.match(/^MCP server "o-denied": OAuth2 token request failed: .*169\.254\.169\.254/);
    });

    it('keeps using a still-valid token when a refresh fails', async () => {
      idp.expiresIn = 2; // refreshed after 1 s, valid for 2 s
      const info = await register('o-refresh-fails', oauth());
      const first = await headersOf(info);
      await new Promise((r) => setTimeout(r, 1100));
      idp.answer = 'server_error';
      expect(await headersOf(info)).to.deep.equal(first);
    });
  });

  describe('secret mappings (GW_SECRET_REF_* environment variables)', () => {
    it('fills a bearer token, a header and a client secret at use', async () => {
      const bearer = await register('m-bearer', { auth: { type: 'bearer' }, secret_mappings: [{ target_field: 'auth.token', secret_reference: 'GW_SECRET_REF_MCP_TOKEN' }] });
      expect(await headersOf(bearer)).to.deep.equal({ authorization: 'Bearer mapped-token-value' });
      const headers = await register('m-headers', {
        auth: { type: 'headers', headers: { 'X-Tenant': 'acme' } },
        secret_mappings: [{ target_field: 'auth.headers.X-Api-Key', secret_reference: 'GW_SECRET_REF_MCP_KEY' }],
      });
      expect(await headersOf(headers)).to.deep.equal({ 'x-tenant': 'acme', 'x-api-key': 'mapped-key' });
      const client = await register('m-oauth', {
        auth: { type: 'oauth2_client_credentials', token_url: idp.url, client_id: 'gw-client' },
        secret_mappings: [{ target_field: 'auth.client_secret', secret_reference: 'GW_SECRET_REF_MCP_CS' }],
      });
      expect((await headersOf(client)).authorization).to.match(/^Bearer tok-/);
      expect(idp.requests.at(-1)!.clientSecret).to.equal(CLIENT_SECRET);
    });

    it('a mapping wins over a stored value, and value_format json reads a JSON string', async () => {
      const both = await register('m-wins', { auth: { type: 'bearer', token: 'stored-token-00000' }, secret_mappings: [{ target_field: 'auth.token', secret_reference: 'GW_SECRET_REF_MCP_TOKEN' }] });
      expect(await headersOf(both)).to.deep.equal({ authorization: 'Bearer mapped-token-value' });
      const json = await register('m-json', { auth: { type: 'bearer' }, secret_mappings: [{ target_field: 'auth.token', secret_reference: 'GW_SECRET_REF_JSON', value_format: 'json' }] });
      expect(await headersOf(json)).to.deep.equal({ authorization: 'Bearer from-json' });
    });

    it('a missing variable or a value no header can carry makes the server unusable (500 naming server and reference)', async () => {
      const missing = await register('m-missing', { auth: { type: 'bearer' }, secret_mappings: [{ target_field: 'auth.token', secret_reference: 'GW_SECRET_REF_NOT_SET' }] });
      const error = await failure(missing);
      expect(error.status).to.equal(500);
      expect(error.code).to.equal('mcp_server_unusable');
      expect(error.message).to.equal('MCP server "m-missing": the secret reference "GW_SECRET_REF_NOT_SET" mapped to auth.token is not available');
      const bad = await register('m-crlf', { auth: { type: 'bearer' }, secret_mappings: [{ target_field: 'auth.token', secret_reference: 'GW_SECRET_REF_BAD' }] });
      const badError = await failure(bad);
      expect(badError.status).to.equal(500);
      expect(badError.message).to.equal('MCP server "m-crlf": the value of auth.token holds characters a header cannot carry');
      const notJson = await register('m-not-json', { auth: { type: 'bearer' }, secret_mappings: [{ target_field: 'auth.token', secret_reference: 'GW_SECRET_REF_MCP_KEY', value_format: 'json' }] });
      expect((await failure(notJson)).message).to.equal('MCP server "m-not-json": the secret mapped to auth.token is not valid JSON (value_format "json")');
    });
  });
});
