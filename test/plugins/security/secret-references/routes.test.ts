/**
 * security.secret-references: the CRUD routes. Every field validated (400 naming the field and the
 * rule), scopes and workspaces enforced, manager secrets sealed at rest and never answered.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { withRecords } from '../../../helpers/records.js';
import { as, call, createReference, serviceAccountJson, startSecretsGateway, type SecretsGateway } from './harness.js';

const VAULT_TOKEN = 'hvs.CAESIJx9VxQk2m7TzDqGs3hvN8cLp0aUeRw5yBfKt1iZoW4j';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY';
const vaultBody = (slug: string, extra: Record<string, unknown> = {}) => ({
  slug, manager: 'vault', manager_config: { address: 'http://127.0.0.1:8200', token: VAULT_TOKEN }, secret_path: 'llm/openai', secret_key: 'api_key', ...extra,
});

describe('security.secret-references: routes', () => {
  let gw: SecretsGateway;
  before(async () => {
    gw = await startSecretsGateway();
  });
  after(async () => {
    await gw?.stop();
  });

  it('creates, reads by id and slug, lists, updates (PUT and PATCH) and deletes a reference', async () => {
    const created = await createReference(gw, vaultBody('crud', { name: 'OpenAI key in Vault', description: 'team key' }));
    expect(created).to.deep.include({
      object: 'secret_reference', slug: 'crud', name: 'OpenAI key in Vault', description: 'team key', manager: 'vault',
      secret_path: 'llm/openai', secret_key: 'api_key', organisation_id: 'default', allow_all_workspaces: true,
    });
    expect(created.allowed_workspaces).to.deep.equal([]);
    expect(created.manager_config).to.deep.equal({ address: 'http://127.0.0.1:8200', token: '********' });
    expect((await call(gw, 'GET', `/v1/secret-references/${created.id}`)).json.slug).to.equal('crud');
    expect((await call(gw, 'GET', '/v1/secret-references/crud')).json.id).to.equal(created.id);

    const put = await call(gw, 'PUT', '/v1/secret-references/crud', { secret_path: 'llm/openai-v2', manager_config: { ...created.manager_config, mount: 'kv' } });
    expect(put.status, put.text).to.equal(200);
    expect(put.json.secret_path).to.equal('llm/openai-v2');
    expect(put.json.manager_config).to.deep.equal({ address: 'http://127.0.0.1:8200', mount: 'kv', token: '********' });
    const patch = await call(gw, 'PATCH', '/v1/secret-references/crud', { secret_key: null, name: 'renamed' });
    expect(patch.json).to.deep.include({ secret_key: null, name: 'renamed', secret_path: 'llm/openai-v2' });

    const list = await call(gw, 'GET', '/v1/secret-references?page_size=1&current_page=0');
    expect(list.json).to.deep.include({ object: 'list', current_page: 0, page_size: 1 });
    expect(list.json.total_count).to.be.at.least(1);
    expect((await call(gw, 'GET', '/v1/secret-references?manager=aws_secrets_manager')).json.data.map((r: any) => r.slug)).not.to.include('crud');

    const deleted = await call(gw, 'DELETE', '/v1/secret-references/crud');
    expect(deleted.json).to.deep.equal({ id: created.id, object: 'secret_reference', deleted: true });
    const gone = await call(gw, 'GET', '/v1/secret-references/crud');
    expect(gone.status).to.equal(404);
    expect(gone.json.error).to.deep.include({ code: 'secret_reference_not_found', message: 'no secret reference "crud"' });
  });

  it('keeps the stored secret when a masked value is sent back, and replaces it when a new one is sent', async () => {
    await createReference(gw, vaultBody('rotate'));
    const box = async () => withRecords(gw.dataDir, (db) => db.get<{ sealed_config: string }>('SELECT sealed_config FROM secret_references WHERE slug = ?', ['rotate']));
    const before = (await box())!.sealed_config;
    await call(gw, 'PUT', '/v1/secret-references/rotate', { manager_config: { address: 'http://127.0.0.1:8201', token: '********' } });
    expect((await box())!.sealed_config).not.to.equal(before); // sealed again, same token inside (checked end to end in managers tests)
    const replaced = await call(gw, 'PUT', '/v1/secret-references/rotate', { manager_config: { address: 'http://127.0.0.1:8201', token: 'hvs.another' } });
    expect(replaced.json.manager_config.token).to.equal('********');
  });

  it('stores the manager secrets sealed: neither the rows nor the database files hold them', async () => {
    await createReference(gw, vaultBody('sealed'));
    await createReference(gw, {
      slug: 'sealed-aws', manager: 'aws_secrets_manager', secret_path: 'prod/openai',
      manager_config: { region: 'eu-west-1', access_key_id: 'AKIAIOSFODNN7EXAMPLE', secret_access_key: AWS_SECRET, session_token: 'FwoGZXIvYXdzEXAMPLETOKEN' },
    });
    const rows = await withRecords(gw.dataDir, (db) => db.all<Record<string, unknown>>('SELECT * FROM secret_references'));
    const text = JSON.stringify(rows);
    expect(text).not.to.contain(VAULT_TOKEN).and.not.to.contain(AWS_SECRET).and.not.to.contain('FwoGZXIvYXdzEXAMPLETOKEN');
    const aws = rows.find((r) => r['slug'] === 'sealed-aws')!;
    expect(JSON.parse(aws['secret_fields'] as string)).to.deep.equal(['secret_access_key', 'session_token']);
    expect(aws['sealed_config']).to.match(/^v1:/);
    for (const file of ['gw.db', 'gw.db-wal']) {
      const path = join(gw.dataDir, file);
      if (!existsSync(path)) continue; // the PostgreSQL pass: the rows above are what is at rest
      const bytes = await readFile(path);
      expect(bytes.includes(VAULT_TOKEN), file).to.equal(false);
      expect(bytes.includes(AWS_SECRET), file).to.equal(false);
    }
    const answers = await Promise.all([call(gw, 'GET', '/v1/secret-references'), call(gw, 'GET', '/v1/secret-references/sealed-aws')]);
    for (const res of answers) expect(res.text).not.to.contain(VAULT_TOKEN).and.not.to.contain(AWS_SECRET).and.not.to.contain('FwoGZXIvYXdzEXAMPLETOKEN');
    expect(answers[1]!.json.manager_config).to.deep.equal({ region: 'eu-west-1', access_key_id: 'AKIAIOSFODNN7EXAMPLE', secret_access_key: '********', session_token: '********' });
  });

  describe('validation', () => {
    const sa = { client_email: 'a@b.iam.gserviceaccount.com', private_key: '-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n' };
    const bad: [string, Record<string, unknown>, RegExp][] = [
      ['a missing slug', { manager: 'env', secret_path: 'GW_SECRET_REF_A' }, /^body\.slug: is required$/],
      ['an invalid slug', { slug: 'Bad Slug', manager: 'env', secret_path: 'GW_SECRET_REF_A' }, /^body\.slug: must be 1 to 63 lower-case letters/],
      ['an unknown manager', { slug: 'm1', manager: 'keepass', secret_path: 'x' }, /^body\.manager: must be one of "vault", "aws_secrets_manager", "gcp_secret_manager", "env"$/],
      ['an empty secret_path', { slug: 'm2', manager: 'env', secret_path: '' }, /^body\.secret_path: must be a non-empty string/],
      ['a blank secret_path', { slug: 'm2', manager: 'env', secret_path: '   ' }, /^body\.secret_path: must be a non-empty string/],
      ['an unknown field', { slug: 'm3', manager: 'env', secret_path: 'GW_SECRET_REF_A', colour: 'red' }, /^body\.colour: is not an allowed key$/],
      ['vault without a token', { slug: 'm4', manager: 'vault', secret_path: 'a', manager_config: { address: 'http://127.0.0.1:8200' } }, /^body\.manager_config\.token: is required \(manager vault\)$/],
      ['vault with a bad address', { slug: 'm5', manager: 'vault', secret_path: 'a', manager_config: { address: 'vault:8200', token: 't' } }, /^body\.manager_config\.address: must be the http\(s\) URL of the Vault server/],
      ['vault with an unknown setting', { slug: 'm6', manager: 'vault', secret_path: 'a', manager_config: { address: 'http://v', token: 't', role: 'x' } }, /^body\.manager_config\.role: is not an allowed key \(manager vault\)$/],
      ['a vault path climbing out', { slug: 'm7', manager: 'vault', secret_path: 'a/../../sys/raw', manager_config: { address: 'http://v', token: 't' } }, /^body\.secret_path: must be a path inside the mount/],
      ['aws without a region', { slug: 'm8', manager: 'aws_secrets_manager', secret_path: 'a', manager_config: { access_key_id: 'AKIAIOSFODNN7EXAMPLE', secret_access_key: 's' } }, /^body\.manager_config\.region: is required \(manager aws_secrets_manager\)$/],
      ['aws with a region that is not one', { slug: 'm9', manager: 'aws_secrets_manager', secret_path: 'a', manager_config: { region: 'evil.com/x', access_key_id: 'AKIAIOSFODNN7EXAMPLE', secret_access_key: 's' } }, /^body\.manager_config\.region: must be an AWS region/],
      ['gcp with a key that does not parse', { slug: 'm10', manager: 'gcp_secret_manager', secret_path: 'a', manager_config: { project_id: 'p', service_account_json: sa } }, /^body\.manager_config\.service_account_json\.private_key: is not a usable private key \(PEM\)$/],
      ['gcp without a service account', { slug: 'm11', manager: 'gcp_secret_manager', secret_path: 'a', manager_config: { project_id: 'p' } }, /^body\.manager_config\.service_account_json: is required/],
      ['a gcp secret id with a slash', { slug: 'm12', manager: 'gcp_secret_manager', secret_path: 'a/b', manager_config: { project_id: 'p', service_account_json: serviceAccountJson('http://127.0.0.1:9/token') } }, /^body\.secret_path: must be a secret id/],
      ['env outside the prefix', { slug: 'm13', manager: 'env', secret_path: 'GW_SECRET_KEY' }, /^body\.secret_path: must name an environment variable starting with GW_SECRET_REF_ \(manager env\)$/],
      ['env with settings', { slug: 'm14', manager: 'env', secret_path: 'GW_SECRET_REF_A', manager_config: { address: 'x' } }, /^body\.manager_config\.address: is not an allowed key \(manager env\)$/],
      ['both workspace fields', { slug: 'm15', manager: 'env', secret_path: 'GW_SECRET_REF_A', allow_all_workspaces: true, allowed_workspaces: ['ws-1'] }, /^body\.allowed_workspaces: cannot be combined with allow_all_workspaces: true/],
      ['neither workspace field', { slug: 'm16', manager: 'env', secret_path: 'GW_SECRET_REF_A', allow_all_workspaces: false }, /^body\.allowed_workspaces: must name at least one workspace when allow_all_workspaces is false$/],
      ['an empty secret_key', { slug: 'm17', manager: 'env', secret_path: 'GW_SECRET_REF_A', secret_key: '' }, /^body\.secret_key: must be a string of 1 to 256 characters, or null$/],
      ['a config that is not an object', { slug: 'm18', manager: 'env', secret_path: 'GW_SECRET_REF_A', manager_config: 'x' }, /^body\.manager_config: must be an object/],
    ];
    for (const [what, body, message] of bad) {
      it(`refuses ${what} with a 400 naming the field`, async () => {
        const res = await call(gw, 'POST', '/v1/secret-references', body);
        expect(res.status, res.text).to.equal(400);
        expect(res.json.error.message).to.match(message);
        expect(res.json.error.type).to.equal('invalid_request_error');
      });
    }

    it('refuses a taken slug, a manager change without its config, and a body that is not an object', async () => {
      await createReference(gw, { slug: 'taken', manager: 'env', secret_path: 'GW_SECRET_REF_A' });
      expect((await call(gw, 'POST', '/v1/secret-references', { slug: 'taken', manager: 'env', secret_path: 'GW_SECRET_REF_B' })).json.error.message)
        .to.equal('body.slug: "taken" is taken by another secret reference');
      expect((await call(gw, 'PUT', '/v1/secret-references/taken', { manager: 'vault' })).json.error.message)
        .to.equal('body.manager_config: is required when manager changes (from env to vault)');
      expect((await call(gw, 'PUT', '/v1/secret-references/taken', { secret_path: 'PATH' })).json.error.message)
        .to.equal('body.secret_path: must name an environment variable starting with GW_SECRET_REF_ (manager env)');
      const notObject = await call(gw, 'POST', '/v1/secret-references', [1, 2]);
      expect(notObject.status).to.equal(400);
      expect(notObject.json.error.message).to.equal('body: must be a JSON object');
      expect((await call(gw, 'GET', '/v1/secret-references?manager=keepass')).json.error.message).to.match(/^query\.manager: must be one of vault/);
      expect((await call(gw, 'GET', '/v1/secret-references?page_size=500')).status).to.equal(400);
    });
  });

  describe('scopes and workspaces', () => {
    it('needs the scope of each action; organisation admins have them all', async () => {
      const none = as({ type: 'organisation-service', scopes: [] });
      for (const [method, path, body] of [
        ['POST', '/v1/secret-references', { slug: 's1', manager: 'env', secret_path: 'GW_SECRET_REF_A' }],
        ['GET', '/v1/secret-references', undefined], ['GET', '/v1/secret-references/x', undefined],
        ['PUT', '/v1/secret-references/x', {}], ['PATCH', '/v1/secret-references/x', {}], ['DELETE', '/v1/secret-references/x', undefined],
      ] as const) {
        const res = await call(gw, method, path, body, none);
        expect(res.status, `${method} ${path}`).to.equal(403);
        expect(res.json.error.message).to.match(/^the API key lacks the scope secret_references\.(create|list|read|update|delete)$/);
      }
      const family = as({ type: 'organisation-service', scopes: ['secret_references'] });
      expect((await call(gw, 'POST', '/v1/secret-references', { slug: 's-family', manager: 'env', secret_path: 'GW_SECRET_REF_A' }, family)).status).to.equal(200);
      const readOnly = as({ type: 'organisation-service', scopes: ['secret_references.read', 'secret_references.list'] });
      expect((await call(gw, 'GET', '/v1/secret-references/s-family', undefined, readOnly)).status).to.equal(200);
      expect((await call(gw, 'DELETE', '/v1/secret-references/s-family', undefined, readOnly)).status).to.equal(403);
      const admin = as({ type: 'organisation-service', role: 'admin', scopes: [] });
      expect((await call(gw, 'DELETE', '/v1/secret-references/s-family', undefined, admin)).status).to.equal(200);
    });

    it('a workspace key sees only references allowed in its workspace and writes only its own', async () => {
      await createReference(gw, { slug: 'ws-a-only', manager: 'env', secret_path: 'GW_SECRET_REF_A', allowed_workspaces: ['ws-a'] });
      await createReference(gw, { slug: 'ws-b-only', manager: 'env', secret_path: 'GW_SECRET_REF_B', allowed_workspaces: ['ws-b'] });
      const wsA = as({ type: 'workspace-service', workspaceId: 'ws-a', scopes: ['secret_references.*'] });
      const listed = (await call(gw, 'GET', '/v1/secret-references?page_size=100', undefined, wsA)).json.data.map((r: any) => r.slug);
      expect(listed).to.include('ws-a-only').and.not.to.include('ws-b-only');
      expect((await call(gw, 'GET', '/v1/secret-references/ws-b-only', undefined, wsA)).status).to.equal(404);
      expect((await call(gw, 'DELETE', '/v1/secret-references/ws-b-only', undefined, wsA)).status).to.equal(404);
      // Created by a workspace key: limited to its workspace, whatever it asks.
      const own = await call(gw, 'POST', '/v1/secret-references', { slug: 'made-in-a', manager: 'env', secret_path: 'GW_SECRET_REF_A' }, wsA);
      expect(own.json).to.deep.include({ allow_all_workspaces: false });
      expect(own.json.allowed_workspaces).to.deep.equal(['ws-a']);
      const wide = await call(gw, 'POST', '/v1/secret-references', { slug: 'wide', manager: 'env', secret_path: 'GW_SECRET_REF_A', allow_all_workspaces: true }, wsA);
      expect(wide.status).to.equal(403);
      // An organisation-wide reference is visible but not writable to it.
      await createReference(gw, { slug: 'org-wide', manager: 'env', secret_path: 'GW_SECRET_REF_A' });
      expect((await call(gw, 'GET', '/v1/secret-references/org-wide', undefined, wsA)).status).to.equal(200);
      const change = await call(gw, 'PATCH', '/v1/secret-references/org-wide', { name: 'mine' }, wsA);
      expect(change.status).to.equal(403);
      expect(change.json.error.message).to.equal('secret reference "org-wide" is not limited to workspace ws-a: only an organisation key may change it');
      const member = as({ type: 'workspace-user', role: 'member', workspaceId: 'ws-a', scopes: ['secret_references.*'] });
      expect((await call(gw, 'DELETE', '/v1/secret-references/made-in-a', undefined, member)).status).to.equal(403);
      expect((await call(gw, 'DELETE', '/v1/secret-references/made-in-a', undefined, wsA)).status).to.equal(200);
    });

    it('a reference of another organisation is invisible', async () => {
      await createReference(gw, { slug: 'org-one', manager: 'env', secret_path: 'GW_SECRET_REF_A' });
      const other = as({ type: 'organisation-service', role: 'admin', organisationId: 'org-2', scopes: [] });
      expect((await call(gw, 'GET', '/v1/secret-references/org-one', undefined, other)).status).to.equal(404);
      expect((await call(gw, 'GET', '/v1/secret-references', undefined, other)).json.total_count).to.equal(0);
      // The slug is free in the other organisation.
      expect((await call(gw, 'POST', '/v1/secret-references', { slug: 'org-one', manager: 'env', secret_path: 'GW_SECRET_REF_A' }, other)).status).to.equal(200);
    });
  });
});
