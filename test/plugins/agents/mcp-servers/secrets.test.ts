/**
 * agents.mcp-servers: upstream secrets are sealed at rest (bound to their server), never answered
 * (masks instead, which a GET → PUT round trip keeps), and another secret key makes a server
 * unusable with a clear 500 rather than sending garbage upstream.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AesGcmSecretBox } from '../../../../plugins/security/secret-box/secret-box.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { withRecords } from '../../../helpers/records.js';
import { call, principal, registryOf, SECRET_KEY, startRegistry } from './harness.js';

const URL = 'https://mcp.example.com/mcp';
const TOKEN = 'bearer-secret-0123456789';
const HEADER_VALUE = 'header-secret-abcdefghij';
const CLIENT_SECRET = 'client-secret-klmnopqrst';
const SECRETS = [TOKEN, HEADER_VALUE, CLIENT_SECRET];
const MASK = (s: string) => '********' + s.slice(-4);

describe('agents.mcp-servers: secrets', () => {
  let gw: TestGateway;
  const caller = principal();
  const ids: Record<string, string> = {};

  before(async () => {
    gw = await startRegistry();
    const bodies: Record<string, Record<string, unknown>> = {
      bearer: { auth: { type: 'bearer', token: TOKEN } },
      headers: { auth: { type: 'headers', headers: { 'X-Api-Key': HEADER_VALUE, 'X-Short': 'tiny' } } },
      oauth: { auth: { type: 'oauth2_client_credentials', token_url: 'https://id.example.com/token', client_id: 'gw', client_secret: CLIENT_SECRET, scope: 'mcp' } },
    };
    for (const [slug, body] of Object.entries(bodies)) {
      const res = await call(gw, 'POST', '/v1/mcp-servers', { slug, url: URL, ...body });
      expect(res.status, res.text).to.equal(200);
      ids[slug] = res.json.id;
    }
  });
  after(async () => {
    await gw?.stop();
  });

  it('answers masks, never a secret: create, GET, list and update', async () => {
    const answers = await Promise.all([
      call(gw, 'GET', '/v1/mcp-servers/bearer'),
      call(gw, 'GET', '/v1/mcp-servers/headers'),
      call(gw, 'GET', `/v1/mcp-servers/${ids['oauth']}`),
      call(gw, 'GET', '/v1/mcp-servers'),
      call(gw, 'PUT', '/v1/mcp-servers/bearer', { description: 'token unchanged' }),
    ]);
    for (const res of answers) {
      expect(res.status, res.text).to.equal(200);
      for (const secret of SECRETS) expect(res.text).not.to.contain(secret);
    }
    expect(answers[0]!.json.auth).to.deep.equal({ type: 'bearer', token: MASK(TOKEN) });
    expect(answers[1]!.json.auth).to.deep.equal({ type: 'headers', headers: { 'x-api-key': MASK(HEADER_VALUE), 'x-short': '********' } });
    expect(answers[2]!.json.auth).to.deep.equal({
      type: 'oauth2_client_credentials', token_url: 'https://id.example.com/token', client_id: 'gw', scope: 'mcp', client_secret: MASK(CLIENT_SECRET),
    });
  });

  it('stores only sealed secrets, bound to the server id', async () => {
    const rows = await withRecords(gw.dataDir, (db) => db.all<Record<string, string>>('SELECT * FROM mcp_servers'));
    const text = JSON.stringify(rows);
    for (const secret of SECRETS) expect(text).not.to.contain(secret);
    const box = new AesGcmSecretBox(Buffer.from(SECRET_KEY, 'base64'));
    const bearer = rows.find((r) => r['slug'] === 'bearer')!;
    expect(bearer['credentials']).to.match(/^v1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/);
    expect(JSON.parse(box.decrypt(bearer['credentials']!, `mcp-server:${ids['bearer']}`))).to.deep.equal({ token: TOKEN });
    expect(() => box.decrypt(bearer['credentials']!, `mcp-server:${ids['headers']}`)).to.throw(/wrong key or tampered/);
    expect(rows.find((r) => r['slug'] === 'oauth')!['auth']).to.not.contain(CLIENT_SECRET);
    // On the PostgreSQL pass the folder holds no database file: the rows above are what is at rest.
    for (const file of ['gw.db', 'gw.db-wal']) {
      const path = join(gw.dataDir, file);
      if (!existsSync(path)) continue;
      const bytes = await readFile(path);
      for (const secret of SECRETS) expect(bytes.includes(secret), file).to.equal(false);
    }
  });

  it('keeps stored secrets that come back as their masks, and replaces those sent anew', async () => {
    const shown = (await call(gw, 'GET', '/v1/mcp-servers/headers')).json.auth;
    const sealedBefore = await withRecords(gw.dataDir, (db) => db.get<{ credentials: string }>('SELECT credentials FROM mcp_servers WHERE slug = ?', ['headers']));
    const same = await call(gw, 'PUT', '/v1/mcp-servers/headers', { auth: shown });
    expect(same.status, same.text).to.equal(200);
    const sealedAfter = await withRecords(gw.dataDir, (db) => db.get<{ credentials: string }>('SELECT credentials FROM mcp_servers WHERE slug = ?', ['headers']));
    expect(sealedAfter!.credentials).to.equal(sealedBefore!.credentials);
    expect(await registryOf(gw).upstreamHeaders(registryOf(gw).find('headers', caller)!, caller, AbortSignal.timeout(1000)))
      .to.deep.equal({ 'x-api-key': HEADER_VALUE, 'x-short': 'tiny' });
    const changed = await call(gw, 'PUT', '/v1/mcp-servers/headers', { auth: { type: 'headers', headers: { 'X-Api-Key': shown.headers['x-api-key'], 'X-Short': 'new-short' } } });
    expect(changed.status, changed.text).to.equal(200);
    expect(await registryOf(gw).upstreamHeaders(registryOf(gw).find('headers', caller)!, caller, AbortSignal.timeout(1000)))
      .to.deep.equal({ 'x-api-key': HEADER_VALUE, 'x-short': 'new-short' });
  });

  it('a gateway with another secret key answers masks, and refuses to use the secrets with a clear 500', async () => {
    const other = await startRegistry({ dataDir: gw.dataDir, env: { GW_SECRET_KEY: randomBytes(32).toString('hex') } });
    try {
      const got = await call(other, 'GET', '/v1/mcp-servers/bearer');
      expect(got.status).to.equal(200);
      expect(got.json.auth.token).to.equal(MASK(TOKEN));
      const registry = registryOf(other);
      let error: { status: number; code: string | null; message: string } | undefined;
      await registry.upstreamHeaders(registry.find('bearer', caller)!, caller, AbortSignal.timeout(1000)).catch((e) => { error = e; });
      expect(error).to.deep.include({
        status: 500, code: 'mcp_server_unusable',
        message: 'MCP server "bearer": its credentials were sealed with another secret key (GW_SECRET_KEY or the data folder\'s secret.key); restore that key or store the credentials again',
      });
      // Sending the mask back cannot re-seal what this key cannot open; sending the secret again can.
      const keep = await call(other, 'PUT', '/v1/mcp-servers/bearer', { auth: { type: 'bearer', token: MASK(TOKEN) } });
      expect(keep.status).to.equal(500);
      const fresh = await call(other, 'PUT', '/v1/mcp-servers/bearer', { auth: { type: 'bearer', token: 'fresh-token-000000000' } });
      expect(fresh.status, fresh.text).to.equal(200);
      expect(await registry.upstreamHeaders(registry.find('bearer', caller)!, caller, AbortSignal.timeout(1000))).to.deep.equal({ authorization: 'Bearer fresh-token-000000000' });
    } finally {
      await other.stop();
    }
  });
});
