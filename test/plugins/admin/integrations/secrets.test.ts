/**
 * admin.integrations: credentials at rest and in answers. Sealed in the store (unreadable without
 * the secret key, bound to their row), never in an answer or a log line, and a gateway with
 * another secret key says clearly why it cannot use them.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sinon from 'sinon';
import { createGateway, createLogger, type Gateway } from '../../../../host/index.js';
import { CredentialCache, type SecretSource } from '../../../../plugins/admin/integrations/credentials.js';
import { IntegrationsService, type Integrations } from '../../../../plugins/admin/integrations/contract.js';
import { fromRow, type IntegrationRow } from '../../../../plugins/admin/integrations/record.js';
import { AesGcmSecretBox } from '../../../../plugins/security/secret-box/secret-box.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, postJson, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { ADMIN_PLUGINS, as, call, chatHeaders, lastKey, openaiIntegration, SECRET_KEY, startAdminGateway } from './harness.js';
import { openRecords, withRecords } from '../../../helpers/records.js';

const KEY = 'sk-proj-Zq7XvT3mK9wR2bN8cL4hF6dJ1sA0eYuP';
const SECRET = 'aws/secret+Access/Key0123456789EXAMPLE';

describe('admin.integrations: credentials at rest and in answers', () => {
  let gw: TestGateway;
  let mock: MockOpenAI;
  let id: string;

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startAdminGateway();
    const res = await call(gw, 'POST', '/v1/integrations', openaiIntegration(mock, 'sealed', KEY, {
      pricing_adjustments: { multiplier: { input: 1.5, output: 2, default: 1.2 } },
      models: [{ slug: 'gpt-4o' }],
    }));
    id = res.json.id;
    await call(gw, 'POST', '/v1/integrations', { slug: 'cloud', provider: 'bedrock', configurations: { cloudA_access_key_id: 'AKIA0000EXAMPLE', cloudA_secret_access_key: SECRET, cloudA_region: 'us-east-1' } });
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });

  it('stores only sealed credentials: the database files never hold the key', async () => {
    const db = await openRecords(gw.dataDir);
    try {
      const row = (await db.get<Record<string, string>>('SELECT credentials, masks, configurations FROM integrations WHERE slug = ?', ['sealed']))!;
      expect(row['credentials']).to.match(/^v1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/);
      expect(row['credentials']).not.to.contain(KEY).and.not.to.contain(Buffer.from(KEY).toString('base64url'));
      expect(JSON.parse(row['masks']!)).to.deep.equal({ key: '********' + KEY.slice(-4), configurations: {} });
      expect(JSON.parse(row['configurations']!)).to.deep.equal({ custom_host: `${mock.url}/v1` });
      const cloud = (await db.get<Record<string, string>>('SELECT credentials, configurations FROM integrations WHERE slug = ?', ['cloud']))!;
      expect(JSON.stringify(cloud)).not.to.contain(SECRET);
      expect(JSON.parse(cloud['configurations']!)).to.deep.equal({ cloudA_region: 'us-east-1' });
      expect(JSON.stringify(await db.all('SELECT * FROM integrations'))).not.to.contain(KEY);
    } finally {
      await db.close();
    }
    // On the PostgreSQL pass the folder holds no database file: the rows above are what is at rest.
    for (const file of ['gw.db', 'gw.db-wal']) {
      const path = join(gw.dataDir, file);
      if (!existsSync(path)) continue;
      const bytes = await readFile(path);
      expect(bytes.includes(KEY), file).to.equal(false);
      expect(bytes.includes(SECRET), file).to.equal(false);
    }
  });

  it('binds the sealed value to its integration: copied onto another row it does not open', async () => {
    const box = new AesGcmSecretBox(Buffer.from(SECRET_KEY, 'base64'));
    const sealed = (await withRecords(gw.dataDir, (db) => db.get<{ credentials: string }>('SELECT credentials FROM integrations WHERE id = ?', [id])))!.credentials;
    expect(JSON.parse(box.decrypt(sealed, `integration:${id}`))).to.deep.equal({ key: KEY });
    expect(() => box.decrypt(sealed, 'integration:another-id')).to.throw(/wrong key or tampered/);
  });

  it('never answers a credential: GET, list, models and updates are masked', async () => {
    const answers = await Promise.all([
      call(gw, 'GET', '/v1/integrations/sealed'),
      call(gw, 'GET', `/v1/integrations/${id}`),
      call(gw, 'GET', '/v1/integrations'),
      call(gw, 'GET', '/v1/integrations/sealed/integration-models'),
      call(gw, 'GET', '/v1/integrations/cloud'),
      call(gw, 'GET', '/v1/models'),
      call(gw, 'PUT', '/v1/integrations/sealed', { description: 'unchanged key' }),
    ]);
    for (const res of answers) {
      expect(res.status, res.text).to.equal(200);
      expect(res.text).not.to.contain(KEY).and.not.to.contain(SECRET);
    }
    expect(answers[0]!.json.key).to.equal('********' + KEY.slice(-4));
  });

  it('a gateway with another secret key boots, answers masked records, and refuses to use the credentials with a clear 500', async () => {
    const other = await startAdminGateway({ dataDir: gw.dataDir, env: { GW_SECRET_KEY: randomBytes(32).toString('hex') } });
    try {
      const got = await call(other, 'GET', '/v1/integrations/sealed');
      expect(got.status).to.equal(200);
      expect(got.json.key).to.equal('********' + KEY.slice(-4));
      mock.reset();
      const res = await postJson(other.url, '/v1/chat/completions', CHAT_BODY, chatHeaders({ 'x-gw-provider': '@sealed' }));
      expect(res.status).to.equal(500);
      expect(res.json.error).to.deep.include({
        code: 'integration_unusable',
        message: 'integration "@sealed" cannot be opened: its credentials were sealed with another secret key (GW_SECRET_KEY or the data folder\'s secret.key); restore that key or store the credentials again',
      });
      expect(mock.requests).to.have.length(0);
      // An update that keeps the stored key cannot re-seal it either; one that sends the key again can.
      const keep = await call(other, 'PUT', '/v1/integrations/sealed', { configurations: { custom_host: `${mock.url}/v1` } });
      expect(keep.status).to.equal(500);
      expect(keep.json.error.message).to.match(/cannot be opened with this gateway's secret key: send key and every secret configuration field again/);
      expect((await call(other, 'PUT', '/v1/integrations/sealed', { name: 'renamed elsewhere' })).status).to.equal(200);
    } finally {
      await other.stop();
    }
  });

  it('the same secret key opens them again after a restart', async () => {
    const again = await startAdminGateway({ dataDir: gw.dataDir });
    try {
      mock.reset();
      const res = await postJson(again.url, '/v1/chat/completions', CHAT_BODY, chatHeaders({ 'x-gw-provider': '@sealed' }));
      expect(res.status, res.text).to.equal(200);
      expect(lastKey(mock)).to.equal(KEY);
    } finally {
      await again.stop();
    }
  });

  describe('the integrations service', () => {
    let service: Integrations;
    before(() => {
      service = gw.gateway.runtime.services.get(IntegrationsService);
    });

    it('finds integrations by @slug, slug or id, without credentials', () => {
      const info = service.bySlug('@sealed')!;
      expect(info).to.deep.include({ id, slug: 'sealed', provider: 'openai', organisation_id: 'default', default_provider_slug: 'sealed' });
      expect(service.bySlug('sealed')!.id).to.equal(id);
      expect(service.bySlug(id)!.slug).to.equal('sealed');
      expect(service.bySlug('@nope')).to.equal(undefined);
      expect(service.bySlug('@sealed', 'org-2')).to.equal(undefined);
      expect(JSON.stringify(info)).not.to.contain(KEY);
    });

    it('answers pricing multipliers per token class, with a default and 1 when unset', () => {
      expect(service.pricingMultiplier('@sealed', 'input')).to.equal(1.5);
      expect(service.pricingMultiplier('sealed', 'output')).to.equal(2);
      expect(service.pricingMultiplier(id, 'cached_input')).to.equal(1.2);
      expect(service.pricingMultiplier('@cloud', 'input')).to.equal(1);
      expect(service.pricingMultiplier('@nope', 'input')).to.equal(1);
    });

    it('names the integration a resolved target came from, and lists what a caller may use', async () => {
      expect(service.forTarget({ virtual_key: id })!.slug).to.equal('sealed');
      expect(service.forTarget({})).to.equal(undefined);
      await call(gw, 'POST', '/v1/integrations', openaiIntegration(mock, 'ws-9-only', 'k', { allowed_workspaces: ['ws-9'] }));
      const slugs = (p: Parameters<Integrations['visibleTo']>[0]) => service.visibleTo(p).map((i) => i.slug);
      expect(slugs(undefined)).to.include('ws-9-only');
      expect(slugs({ keyId: 'k', type: 'workspace-service', workspaceId: 'ws-1', scopes: [] })).not.to.include('ws-9-only');
      expect(slugs({ keyId: 'k', type: 'workspace-service', workspaceId: 'ws-9', scopes: [] })).to.include('ws-9-only');
    });
  });
});

describe('admin.integrations: no credential in any log line', () => {
  let gateway: Gateway;
  let mock: MockOpenAI;
  let dataDir: string;
  const lines: string[] = [];

  before(async () => {
    mock = await startMockOpenAI();
    dataDir = await mkdtemp(join(tmpdir(), 'gw-integrations-logs-'));
    gateway = await createGateway({
      composition: { plugins: ADMIN_PLUGINS },
      env: { GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: TEST_API_KEY, GW_SECRET_KEY: SECRET_KEY },
      logger: createLogger('trace', { write: (line: string) => void lines.push(line) }),
    });
  });
  after(async () => {
    await gateway?.close();
    await mock?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await gateway.fetch(new Request('http://gw.local' + path, {
      method,
      headers: { 'x-gw-api-key': TEST_API_KEY, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    }));
    return { status: res.status, text: await res.text() };
  };

  it('logs requests that create, read, update and use an integration, and failures, without the key', async () => {
    expect((await send('POST', '/v1/integrations', openaiIntegration(mock, 'logged', KEY))).status).to.equal(200);
    expect((await send('GET', '/v1/integrations/logged')).status).to.equal(200);
    expect((await send('PUT', '/v1/integrations/logged', { key: KEY + '-v2' })).status).to.equal(200);
    expect((await send('POST', '/v1/chat/completions', CHAT_BODY, { 'x-gw-provider': '@logged' })).status).to.equal(200);
    mock.next({ status: 401 });
    expect((await send('POST', '/v1/chat/completions', CHAT_BODY, { 'x-gw-provider': '@logged' })).status).to.equal(401);
    mock.next({ reset: true });
    expect((await send('POST', '/v1/chat/completions', CHAT_BODY, { 'x-gw-provider': '@logged' })).status).to.equal(502);
    expect((await send('POST', '/v1/integrations', { slug: 'bad', provider: 'openai', key: KEY, configurations: { custom_host: 'nope' } })).status).to.equal(400);
    expect((await send('POST', '/v1/chat/completions', CHAT_BODY, { ...as({ workspaceId: 'ws-1' }), 'x-gw-provider': '@logged' })).status).to.equal(200);
    expect(lines.length).to.be.greaterThan(5);
    for (const line of lines) expect(line).not.to.contain(KEY);
  });
});

describe('admin.integrations: credential cache', () => {
  const box = new AesGcmSecretBox(randomBytes(32));
  const row = (over: Partial<IntegrationRow>): IntegrationRow => ({
    id: 'i-1', organisation_id: 'default', slug: 'vertex', provider_slug: 'vertex', name: 'v', description: null, provider: 'vertex-ai',
    configurations: '{"cloudC_region":"us-central1"}', credentials: null, masks: '{"configurations":{}}', allow_all_workspaces: 1,
    allowed_workspaces: '[]', models: '[]', pricing_adjustments: null, revision: 1, created_at: '', last_updated_at: '',
    secret_mappings: JSON.stringify([
      { target_field: 'configurations.cloudC_service_account_json', secret_reference: 'SA', value_format: 'json' },
      { target_field: 'configurations.cloudC_project_id', secret_reference: 'PROJECT' },
    ]),
    ...over,
  });
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => {
    clock = sinon.useFakeTimers({ now: 1_000_000, toFake: ['Date'] });
  });
  afterEach(() => clock.restore());

  it('parses json mappings, keeps the result, and resolves the references again after secretTtlMs', async () => {
    let calls = 0;
    let project = 'proj-1';
    const source: SecretSource = {
      resolve: async (reference) => {
        calls++;
        return reference === 'SA' ? '{"client_email":"a@b.c","private_key":"k"}' : project;
      },
    };
    const cache = new CredentialCache(box, source, 60_000);
    const integration = fromRow(row({}));
    const first = await cache.fields(integration);
    expect(first).to.deep.equal({
      provider: 'vertex-ai', cloudC_region: 'us-central1', cloudC_service_account_json: { client_email: 'a@b.c', private_key: 'k' }, cloudC_project_id: 'proj-1',
    });
    expect(Object.isFrozen(first)).to.equal(true);
    expect(cache.fields(integration)).to.equal(first); // from memory, synchronously
    expect(calls).to.equal(2);
    project = 'proj-2';
    clock.tick(60_001);
    expect((await cache.fields(integration))['cloudC_project_id']).to.equal('proj-2');
    expect(calls).to.equal(4);
  });

  it('opens sealed credentials once per revision, sharing one opening between concurrent requests', async () => {
    const decrypt = sinon.spy(box, 'decrypt');
    try {
      const sealed = box.encrypt(JSON.stringify({ key: 'sk-1' }), 'integration:i-2');
      const cache = new CredentialCache(box, { resolve: () => undefined }, 60_000);
      const integration = fromRow(row({ id: 'i-2', provider: 'openai', secret_mappings: '[]', credentials: sealed }));
      const [a, b] = await Promise.all([cache.fields(integration), cache.fields(integration)]);
      expect(a).to.equal(b);
      expect(a['api_key']).to.equal('sk-1');
      clock.tick(10 * 365 * 24 * 3600 * 1000); // no mappings: never expires
      expect(cache.fields(integration)).to.equal(a);
      expect(decrypt.callCount).to.equal(1);
      const next = fromRow(row({ id: 'i-2', provider: 'openai', secret_mappings: '[]', credentials: box.encrypt(JSON.stringify({ key: 'sk-2' }), 'integration:i-2'), revision: 2 }));
      expect((await cache.fields(next))['api_key']).to.equal('sk-2');
      expect(decrypt.callCount).to.equal(2);
    } finally {
      decrypt.restore();
    }
  });
});
