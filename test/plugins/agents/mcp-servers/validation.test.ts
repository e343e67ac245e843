/** agents.mcp-servers: bad bodies answer 400 naming the field and the rule, on create and on update; nothing is stored. */
import { expect } from 'chai';
import type { TestGateway } from '../../../helpers/gateway.js';
import { call, startRegistry } from './harness.js';

const URL = 'https://mcp.example.com/mcp';

describe('agents.mcp-servers: validation', () => {
  let gw: TestGateway;

  before(async () => {
    gw = await startRegistry();
    expect((await call(gw, 'POST', '/v1/mcp-servers', { slug: 'existing', url: URL, auth: { type: 'bearer', token: 'existing-token-123456' } })).status).to.equal(200);
  });
  after(async () => {
    await gw?.stop();
  });

  const refused: [string, unknown, string, string][] = [
    ['no body', undefined, '', 'must be a JSON object'],
    ['an array', [], '', 'must be a JSON object'],
    ['no slug', { url: URL }, 'slug', ''],
    ['no url', { slug: 'a' }, 'url', ''],
    ['a bad slug', { slug: 'Not A Slug', url: URL }, 'slug', 'must be 1 to 63 lower-case letters'],
    ['a non-http url', { slug: 'a', url: 'ftp://mcp.example.com/' }, 'url', 'must be an http(s) URL'],
    ['a url with credentials', { slug: 'a', url: 'https://user:pass@mcp.example.com/mcp' }, 'url', 'must not carry credentials'],
    ['an unknown field', { slug: 'a', url: URL, colour: 'red' }, 'colour', 'is not an allowed key'],
    ['an empty name', { slug: 'a', url: URL, name: '' }, 'name', ''],
    ['an unknown auth type', { slug: 'a', url: URL, auth: { type: 'kerberos' } }, 'auth.type', ''],
    ['auth without type', { slug: 'a', url: URL, auth: { token: 'x' } }, 'auth.type', ''],
    ['bearer without token', { slug: 'a', url: URL, auth: { type: 'bearer' } }, 'auth.token', 'is required for auth type "bearer"'],
    ['a token on type none', { slug: 'a', url: URL, auth: { type: 'none', token: 'abc' } }, 'auth.token', 'is not a field of auth type "none"'],
    ['a token on user_bearer', { slug: 'a', url: URL, auth: { type: 'user_bearer', token: 'abc' } }, 'auth.token', 'is not a field of auth type "user_bearer"'],
    ['headers on bearer', { slug: 'a', url: URL, auth: { type: 'bearer', token: 't', headers: { 'x-a': 'b' } } }, 'auth.headers', 'is not a field of auth type "bearer"'],
    ['a token with a line break', { slug: 'a', url: URL, auth: { type: 'bearer', token: 'abc\r\nx-evil: 1' } }, 'auth.token', 'must not contain CR, LF'],
    ['headers without any', { slug: 'a', url: URL, auth: { type: 'headers', headers: {} } }, 'auth.headers', 'must name at least one header'],
    ['a Host header', { slug: 'a', url: URL, auth: { type: 'headers', headers: { Host: 'evil.example.com' } } }, 'auth.headers.Host', '"Host" cannot be set'],
    ['a hop-by-hop header', { slug: 'a', url: URL, auth: { type: 'headers', headers: { Connection: 'close' } } }, 'auth.headers.Connection', '"Connection" cannot be set'],
    ['Transfer-Encoding', { slug: 'a', url: URL, auth: { type: 'headers', headers: { 'transfer-encoding': 'chunked' } } }, 'auth.headers.transfer-encoding', '"transfer-encoding" cannot be set'],
    ['Content-Length', { slug: 'a', url: URL, auth: { type: 'headers', headers: { 'Content-Length': '1' } } }, 'auth.headers.Content-Length', '"Content-Length" cannot be set'],
    ['Mcp-Session-Id', { slug: 'a', url: URL, auth: { type: 'headers', headers: { 'Mcp-Session-Id': 's' } } }, 'auth.headers.Mcp-Session-Id', '"Mcp-Session-Id" cannot be set'],
    ['a header name with a space', { slug: 'a', url: URL, auth: { type: 'headers', headers: { 'x api': 'v' } } }, 'auth.headers.x api', 'must be an HTTP header name'],
    ['a header value with a line break', { slug: 'a', url: URL, auth: { type: 'headers', headers: { 'x-api-key': 'v\nx' } } }, 'auth.headers.x-api-key', 'must not contain CR, LF'],
    ['a header named twice', { slug: 'a', url: URL, auth: { type: 'headers', headers: { 'X-Key': 'a', 'x-key': 'b' } } }, 'auth.headers.x-key', 'names a header twice'],
    ['too many headers', { slug: 'a', url: URL, auth: { type: 'headers', headers: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`x-h${i}`, 'v'])) } }, 'auth.headers', 'must hold at most 32 headers'],
    ['oauth2 without token_url', { slug: 'a', url: URL, auth: { type: 'oauth2_client_credentials', client_id: 'c', client_secret: 's' } }, 'auth.token_url', 'is required'],
    ['oauth2 without client_id', { slug: 'a', url: URL, auth: { type: 'oauth2_client_credentials', token_url: URL, client_secret: 's' } }, 'auth.client_id', 'is required'],
    ['oauth2 without client_secret', { slug: 'a', url: URL, auth: { type: 'oauth2_client_credentials', token_url: URL, client_id: 'c' } }, 'auth.client_secret', 'is required'],
    ['oauth2 with a bad token_url', { slug: 'a', url: URL, auth: { type: 'oauth2_client_credentials', token_url: 'file:///etc/passwd', client_id: 'c', client_secret: 's' } }, 'auth.token_url', 'must be an http(s) URL'],
    ['oauth2 with credentials in token_url', { slug: 'a', url: URL, auth: { type: 'oauth2_client_credentials', token_url: 'https://u:p@id.example.com/token', client_id: 'c', client_secret: 's' } }, 'auth.token_url', 'must not carry credentials'],
    ['oauth2 with an unknown client auth', { slug: 'a', url: URL, auth: { type: 'oauth2_client_credentials', token_url: URL, client_id: 'c', client_secret: 's', token_endpoint_auth_method: 'private_key_jwt' } }, 'auth.token_endpoint_auth_method', ''],
    ['allowed_tools not an array', { slug: 'a', url: URL, allowed_tools: 'search' }, 'allowed_tools', 'must be an array of tool names or null'],
    ['a bad tool name', { slug: 'a', url: URL, denied_tools: ['rm -rf'] }, 'denied_tools.0', 'must be 1 to 128'],
    ['a tool listed twice', { slug: 'a', url: URL, denied_tools: ['a', 'a'] }, 'denied_tools', ''],
    ['too many tools', { slug: 'a', url: URL, allowed_tools: Array.from({ length: 1001 }, (_, i) => `t${i}`) }, 'allowed_tools', ''],
    ['workspace_id and allow_all_workspaces', { slug: 'a', url: URL, workspace_id: 'ws-1', allow_all_workspaces: true }, 'allow_all_workspaces', 'cannot be combined with workspace_id'],
    ['workspace_id and allowed_workspaces', { slug: 'a', url: URL, workspace_id: 'ws-1', allowed_workspaces: ['ws-1'] }, 'allowed_workspaces', 'cannot be combined with workspace_id'],
    ['allow_all and a list', { slug: 'a', url: URL, allow_all_workspaces: true, allowed_workspaces: ['ws-1'] }, 'allowed_workspaces', 'cannot be combined with allow_all_workspaces'],
    ['an unknown workspace', { slug: 'a', url: URL, workspace_id: 'nowhere' }, 'workspace_id', 'unknown workspace "nowhere"'],
    ['another organisation\'s workspace', { slug: 'a', url: URL, allowed_workspaces: ['ws-1', 'ws-x'] }, 'allowed_workspaces.1', 'unknown workspace "ws-x"'],
    ['a mapping on type none', { slug: 'a', url: URL, secret_mappings: [{ target_field: 'auth.token', secret_reference: 'GW_SECRET_REF_A' }] }, 'secret_mappings.0.target_field', 'must be nothing'],
    ['a mapping onto a field of another type', { slug: 'a', url: URL, auth: { type: 'bearer' }, secret_mappings: [{ target_field: 'auth.client_secret', secret_reference: 'GW_SECRET_REF_A' }] }, 'secret_mappings.0.target_field', 'must be "auth.token" for auth type "bearer"'],
    ['a mapping onto a reserved header', { slug: 'a', url: URL, auth: { type: 'headers' }, secret_mappings: [{ target_field: 'auth.headers.host', secret_reference: 'GW_SECRET_REF_A' }] }, 'secret_mappings.0.target_field', '"host" cannot be set'],
    ['a field mapped twice', { slug: 'a', url: URL, auth: { type: 'bearer' }, secret_mappings: [{ target_field: 'auth.token', secret_reference: 'GW_SECRET_REF_A' }, { target_field: 'auth.token', secret_reference: 'GW_SECRET_REF_B' }] }, 'secret_mappings.1.target_field', 'maps auth.token twice'],
    ['a reference outside the prefix', { slug: 'a', url: URL, auth: { type: 'bearer' }, secret_mappings: [{ target_field: 'auth.token', secret_reference: 'GW_SECRET_KEY' }] }, 'secret_mappings.0.secret_reference', 'must name an environment variable starting with GW_SECRET_REF_'],
    ['an unknown value_format', { slug: 'a', url: URL, auth: { type: 'bearer' }, secret_mappings: [{ target_field: 'auth.token', secret_reference: 'GW_SECRET_REF_A', value_format: 'yaml' }] }, 'secret_mappings.0.value_format', ''],
    ['a taken slug', { slug: 'existing', url: URL }, 'slug', '"existing" is taken by another MCP server'],
  ];

  for (const [what, body, param, rule] of refused) {
    it(`create refuses ${what}`, async () => {
      const res = await call(gw, 'POST', '/v1/mcp-servers', body);
      expect(res.status, res.text).to.equal(400);
      expect(res.json.error.type).to.equal('invalid_request_error');
      expect(res.json.error.param ?? '', res.text).to.equal(param);
      expect(res.json.error.message).to.include(`body${param ? '.' + param : ''}: ${rule}`);
    });
  }

  it('stored nothing for any refused create', async () => {
    const list = await call(gw, 'GET', '/v1/mcp-servers');
    expect(list.json.data.map((s: { slug: string }) => s.slug)).to.deep.equal(['existing']);
  });

  const refusedUpdates: [string, unknown, string, string][] = [
    ['a bad url', { url: 'mailto:x@example.com' }, 'url', 'must be an http(s) URL'],
    ['a url with credentials', { url: 'http://a:b@127.0.0.1/' }, 'url', 'must not carry credentials'],
    ['an auth type without its secret', { auth: { type: 'oauth2_client_credentials', token_url: URL, client_id: 'c' } }, 'auth.client_secret', 'is required'],
    ['moving into a workspace', { workspace_id: 'ws-1' }, 'workspace_id', 'cannot change'],
    ['mappings the auth type has no field for', { secret_mappings: [{ target_field: 'auth.headers.x-a', secret_reference: 'GW_SECRET_REF_A' }] }, 'secret_mappings.0.target_field', 'must be "auth.token"'],
    ['an unknown field', { owner: 'me' }, 'owner', 'is not an allowed key'],
  ];

  for (const [what, body, param, rule] of refusedUpdates) {
    it(`update refuses ${what}`, async () => {
      const res = await call(gw, 'PUT', '/v1/mcp-servers/existing', body);
      expect(res.status, res.text).to.equal(400);
      expect(res.json.error.param ?? '', res.text).to.equal(param);
      expect(res.json.error.message).to.include(`body${param ? '.' + param : ''}: ${rule}`);
    });
  }

  it('left the server as it was', async () => {
    const res = await call(gw, 'GET', '/v1/mcp-servers/existing');
    expect(res.json).to.deep.include({ url: URL, workspace_id: null, secret_mappings: [] });
    expect(res.json.auth.type).to.equal('bearer');
  });

  it('answers 404 for an unknown server and 405 for an unknown method', async () => {
    expect((await call(gw, 'PUT', '/v1/mcp-servers/nope', { name: 'x' })).status).to.equal(404);
    expect((await call(gw, 'DELETE', '/v1/mcp-servers/nope')).status).to.equal(404);
    expect((await call(gw, 'PATCH', '/v1/mcp-servers/existing', { name: 'x' })).status).to.equal(405);
  });
});
