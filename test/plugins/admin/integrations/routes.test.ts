/** admin.integrations: the /v1/integrations routes (create, read, list, update, delete, models) and their validation. */
import { expect } from 'chai';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { call, openaiIntegration, startAdminGateway } from './harness.js';

const KEY = 'sk-live-0123456789abcdef';

describe('admin.integrations: routes', () => {
  let gw: TestGateway;
  let mock: MockOpenAI;

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startAdminGateway();
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });

  describe('create and read', () => {
    let id: string;

    it('creates an integration and answers it with the key masked', async () => {
      const res = await call(gw, 'POST', '/v1/integrations', openaiIntegration(mock, 'openai-prod', KEY, { name: 'OpenAI prod', description: 'main account' }));
      expect(res.status, res.text).to.equal(200);
      id = res.json.id;
      expect(id).to.match(/^[0-9a-f-]{36}$/);
      expect(res.json).to.deep.include({
        object: 'integration', slug: 'openai-prod', name: 'OpenAI prod', description: 'main account', provider: 'openai',
        key: '********cdef', allow_all_workspaces: true, allowed_workspaces: [], create_default_provider: true,
        default_provider_slug: 'openai-prod', status: 'active', last_reset_at: null, organisation_id: 'default',
      });
      expect(res.json.configurations).to.deep.equal({ custom_host: `${mock.url}/v1` });
      expect(res.json.created_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(res.json.last_updated_at).to.equal(res.json.created_at);
      expect(res.text).not.to.contain(KEY);
    });

    it('reads it by id and by slug, masked', async () => {
      for (const ref of [id, 'openai-prod']) {
        const res = await call(gw, 'GET', `/v1/integrations/${ref}`);
        expect(res.status).to.equal(200);
        expect(res.json.id).to.equal(id);
        expect(res.json.key).to.equal('********cdef');
        expect(res.text).not.to.contain(KEY);
      }
    });

    it('answers 404 for an unknown integration', async () => {
      const res = await call(gw, 'GET', '/v1/integrations/nope');
      expect(res.status).to.equal(404);
      expect(res.json.error).to.deep.include({ code: 'integration_not_found', message: 'no integration "nope"' });
    });

    it('masks secret configuration fields too, and shows the others', async () => {
      const res = await call(gw, 'POST', '/v1/integrations', {
        slug: 'bedrock-eu', provider: 'bedrock',
        configurations: { cloudA_access_key_id: 'AKIAEXAMPLEKEYID0001', cloudA_secret_access_key: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', cloudA_region: 'eu-west-1' },
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.json.key).to.equal(null);
      expect(res.json.configurations).to.deep.equal({ cloudA_region: 'eu-west-1', cloudA_access_key_id: '********0001', cloudA_secret_access_key: '********EKEY' });
      expect(res.text).not.to.contain('wJalrXUtnFEMI');
    });
  });

  describe('validation', () => {
    const bad: [string, Record<string, unknown>, RegExp][] = [
      ['a missing slug', { provider: 'openai', key: 'sk-x' }, /body\.slug: is required/],
      ['an invalid slug', { slug: 'Bad Slug', provider: 'openai', key: 'sk-x' }, /body\.slug: must be 1 to 63 lower-case letters/],
      ['an unknown provider', { slug: 'p1', provider: 'nope', key: 'sk-x' }, /body\.provider: unknown provider "nope" \(loaded: .*openai/],
      ['a key the provider needs', { slug: 'p2', provider: 'openai' }, /body\.key: is required for provider "openai"/],
      ['an unknown configuration field', { slug: 'p3', provider: 'openai', key: 'k', configurations: { retry: { attempts: 2 } } }, /body\.configurations\.retry: is not an integration configuration field/],
      ['the key inside configurations', { slug: 'p4', provider: 'openai', configurations: { api_key: 'k' } }, /body\.configurations\.api_key: is not an integration configuration field \(the provider key goes in "key"/],
      ['a bad custom_host', { slug: 'p5', provider: 'openai', key: 'k', configurations: { custom_host: 'ftp://x' } }, /body\.configurations\.custom_host: must be an http\(s\) URL/],
      ['a bad cloud field type', { slug: 'p6', provider: 'azure-openai', key: 'k', configurations: { cloudB_deployment_type: 'huge' } }, /body\.configurations\.cloudB_deployment_type: must be one of "serverless", "managed"/],
      ['an unknown field', { slug: 'p7', provider: 'openai', key: 'k', colour: 'red' }, /body\.colour: is not an allowed key/],
      ['workspaces and allow_all together', { slug: 'p8', provider: 'openai', key: 'k', allow_all_workspaces: true, allowed_workspaces: ['ws-1'] }, /body\.allowed_workspaces: cannot be combined with allow_all_workspaces: true/],
      ['a mapping onto an unknown field', { slug: 'p9', provider: 'openai', key: 'k', secret_mappings: [{ target_field: 'configurations.retry', secret_reference: 'GW_SECRET_REF_X' }] }, /body\.secret_mappings\.0\.target_field: must be "key" or "configurations\.<field>"/],
      ['a mapping onto any environment variable', { slug: 'p10', provider: 'openai', secret_mappings: [{ target_field: 'key', secret_reference: 'GW_SECRET_KEY' }] }, /body\.secret_mappings\.0\.secret_reference: no secret reference "GW_SECRET_KEY" in this organisation \(give the slug of a stored secret reference, or an environment variable starting with GW_SECRET_REF_\)/],
      ['a bad value_format', { slug: 'p11', provider: 'openai', secret_mappings: [{ target_field: 'key', secret_reference: 'GW_SECRET_REF_A', value_format: 'yaml' }] }, /value_format: must be one of "string", "json"/],
      ['a bad multiplier', { slug: 'p12', provider: 'openai', key: 'k', pricing_adjustments: { multiplier: { input: 0 } } }, /body\.pricing_adjustments\.multiplier: must be a number > 0/],
    ];
    for (const [what, body, message] of bad) {
      it(`refuses ${what} with a 400 naming the field`, async () => {
        const res = await call(gw, 'POST', '/v1/integrations', body);
        expect(res.status, res.text).to.equal(400);
        expect(res.json.error.message).to.match(message);
        expect(res.json.error.type).to.equal('invalid_request_error');
      });
    }

    it('refuses a slug or default provider slug another integration uses', async () => {
      expect((await call(gw, 'POST', '/v1/integrations', openaiIntegration(mock, 'taken', 'k', { default_provider_slug: 'taken-alias' }))).status).to.equal(200);
      const again = await call(gw, 'POST', '/v1/integrations', openaiIntegration(mock, 'taken', 'k'));
      expect(again.status).to.equal(400);
      expect(again.json.error.message).to.equal('body.slug: "taken" is taken by another integration');
      const alias = await call(gw, 'POST', '/v1/integrations', openaiIntegration(mock, 'taken-alias', 'k'));
      expect(alias.status).to.equal(400);
      const asAlias = await call(gw, 'POST', '/v1/integrations', openaiIntegration(mock, 'other', 'k', { default_provider_slug: 'taken' }));
      expect(asAlias.json.error.message).to.equal('body.default_provider_slug: "taken" is taken by another integration');
    });

    it('accepts a key mapped from a secret reference instead of a stored key', async () => {
      const res = await call(gw, 'POST', '/v1/integrations', { slug: 'mapped', provider: 'openai', secret_mappings: [{ target_field: 'key', secret_reference: 'GW_SECRET_REF_OPENAI' }] });
      expect(res.status, res.text).to.equal(200);
      expect(res.json.secret_mappings).to.deep.equal([{ target_field: 'key', secret_reference: 'GW_SECRET_REF_OPENAI' }]);
    });
  });

  describe('update', () => {
    it('keeps the stored key when the answered mask is sent back, and replaces it when a new one is sent', async () => {
      const created = await call(gw, 'POST', '/v1/integrations', openaiIntegration(mock, 'rotating', 'sk-first-0123456789-1111'));
      const got = (await call(gw, 'GET', '/v1/integrations/rotating')).json;
      const renamed = await call(gw, 'PUT', '/v1/integrations/rotating', { name: 'Renamed', key: got.key, configurations: got.configurations });
      expect(renamed.status, renamed.text).to.equal(200);
      expect(renamed.json).to.deep.include({ name: 'Renamed', key: '********1111' });
      expect(renamed.json.last_updated_at >= created.json.last_updated_at).to.equal(true);
      const rekeyed = await call(gw, 'PUT', `/v1/integrations/${created.json.id}`, { key: 'sk-second-0123456789-2222' });
      expect(rekeyed.json.key).to.equal('********2222');
      expect(rekeyed.json.configurations).to.deep.equal({ custom_host: `${mock.url}/v1` });
    });

    it('still checks the result: removing what the provider needs is refused', async () => {
      await call(gw, 'POST', '/v1/integrations', { slug: 'hosted', provider: 'openai', configurations: { custom_host: `${mock.url}/v1` } });
      const res = await call(gw, 'PUT', '/v1/integrations/hosted', { configurations: {} });
      expect(res.status).to.equal(400);
      expect(res.json.error.message).to.match(/^body\.key: is required for provider "openai"/);
    });

    it('validates the body like a create, all fields optional', async () => {
      const res = await call(gw, 'PUT', '/v1/integrations/hosted', { allowed_workspaces: 'ws-1' });
      expect(res.status).to.equal(400);
      expect(res.json.error.message).to.equal('body.allowed_workspaces: must be an array');
    });

    it('refuses unknown fields and changes that break the target (unknown provider)', async () => {
      expect((await call(gw, 'PUT', '/v1/integrations/hosted', { colour: 'red' })).json.error.message).to.equal('body.colour: is not an allowed key');
      const provider = await call(gw, 'PUT', '/v1/integrations/hosted', { provider: 'nope' });
      expect(provider.status).to.equal(400);
      expect(provider.json.error.message).to.match(/^body\.provider: unknown provider "nope"/);
    });

    it('moves an integration to named workspaces, and back to all', async () => {
      const limited = await call(gw, 'PUT', '/v1/integrations/hosted', { allowed_workspaces: ['ws-a', 'ws-b'] });
      expect(limited.json).to.deep.include({ allow_all_workspaces: false, allowed_workspaces: ['ws-a', 'ws-b'] });
      const all = await call(gw, 'PUT', '/v1/integrations/hosted', { allow_all_workspaces: true });
      expect(all.json).to.deep.include({ allow_all_workspaces: true, allowed_workspaces: [] });
    });

    it('answers 404 for an unknown integration', async () => {
      expect((await call(gw, 'PUT', '/v1/integrations/ghost', { name: 'x' })).status).to.equal(404);
    });
  });

  describe('integration models', () => {
    it('sets models with a model-specific custom_host, and lists them', async () => {
      await call(gw, 'POST', '/v1/integrations', openaiIntegration(mock, 'with-models', 'k'));
      const models = [{ slug: 'gpt-4o' }, { slug: 'llama-local', configurations: { custom_host: 'http://127.0.0.1:9/v1' } }, { slug: 'o3', enabled: false }];
      const res = await call(gw, 'PUT', '/v1/integrations/with-models/integration-models', { models });
      expect(res.status, res.text).to.equal(200);
      expect(res.json).to.deep.equal({ object: 'list', total_count: 3, data: models });
      expect((await call(gw, 'GET', '/v1/integrations/with-models/integration-models')).json.data).to.deep.equal(models);
      expect((await call(gw, 'GET', '/v1/integrations/with-models')).json.models).to.deep.equal(models);
    });

    const badModels: [string, unknown, RegExp][] = [
      ['empty configurations', [{ slug: 'm', configurations: {} }], /body\.models\.0\.configurations\.custom_host: is required/],
      ['a custom_host that is not a URL', [{ slug: 'm', configurations: { custom_host: 'not a url' } }], /body\.models\.0\.configurations\.custom_host: must be an http\(s\) URL/],
      ['other configuration keys', [{ slug: 'm', configurations: { custom_host: 'http://h', region: 'x' } }], /body\.models\.0\.configurations\.region: is not an allowed key/],
      ['a model listed twice', [{ slug: 'm' }, { slug: 'm' }], /body\.models\.1\.slug: "m" is listed twice/],
      ['no models array', undefined, /body\.models: is required/],
    ];
    for (const [what, models, message] of badModels) {
      it(`refuses ${what}`, async () => {
        const res = await call(gw, 'PUT', '/v1/integrations/with-models/integration-models', models === undefined ? {} : { models });
        expect(res.status).to.equal(400);
        expect(res.json.error.message).to.match(message);
      });
    }
  });

  describe('list and delete', () => {
    it('lists with total_count, pages and a provider filter', async () => {
      const all = await call(gw, 'GET', '/v1/integrations?page_size=100');
      expect(all.status).to.equal(200);
      expect(all.json.object).to.equal('list');
      expect(all.json.total_count).to.equal(all.json.data.length);
      expect(all.text).not.to.contain(KEY);
      const page = await call(gw, 'GET', '/v1/integrations?page_size=2&current_page=1');
      expect(page.json).to.deep.include({ current_page: 1, page_size: 2, total_count: all.json.total_count });
      expect(page.json.data.map((i: any) => i.slug)).to.deep.equal(all.json.data.slice(2, 4).map((i: any) => i.slug));
      const bedrock = await call(gw, 'GET', '/v1/integrations?provider=bedrock');
      expect(bedrock.json.total_count).to.equal(1);
      expect(bedrock.json.data[0].slug).to.equal('bedrock-eu');
    });

    it('refuses a bad page', async () => {
      const res = await call(gw, 'GET', '/v1/integrations?page_size=0');
      expect(res.status).to.equal(400);
      expect(res.json.error.message).to.equal('query.page_size: must be an integer from 1 to 100');
    });

    it('deletes, after which the integration is gone', async () => {
      const res = await call(gw, 'DELETE', '/v1/integrations/bedrock-eu');
      expect(res.status).to.equal(200);
      expect(res.json).to.deep.include({ object: 'integration', deleted: true });
      expect((await call(gw, 'GET', '/v1/integrations/bedrock-eu')).status).to.equal(404);
      expect((await call(gw, 'DELETE', '/v1/integrations/bedrock-eu')).status).to.equal(404);
    });
  });
});
