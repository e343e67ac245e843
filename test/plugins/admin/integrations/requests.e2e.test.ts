/**
 * admin.integrations end to end: requests name a stored integration (`@slug` in x-gw-provider or a
 * config, `virtual_key`, x-gw-virtual-key) and the mock provider receives the stored credential;
 * the client sends none. Failure modes: unknown, deleted, not allowed, changed, misconfigured.
 */
import { expect } from 'chai';
import OpenAI from 'openai';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, configHeaders, postJson, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { as, call, chatHeaders, lastKey, openaiIntegration, startAdminGateway } from './harness.js';

const KEY_A = 'sk-stored-aaaaaaaaaaaaaaaa';
const KEY_B = 'sk-stored-bbbbbbbbbbbbbbbb';

describe('admin.integrations: requests through stored integrations', () => {
  let gw: TestGateway;
  let mockA: MockOpenAI;
  let mockB: MockOpenAI;
  let idA: string;

  before(async () => {
    [mockA, mockB] = await Promise.all([startMockOpenAI(), startMockOpenAI()]);
    gw = await startAdminGateway({ env: { GW_SECRET_REF_OPENAI: KEY_B, GW_SECRET_REF_BAD_JSON: '{nope' } });
    idA = (await call(gw, 'POST', '/v1/integrations', openaiIntegration(mockA, 'acct-a', KEY_A))).json.id;
    expect((await call(gw, 'POST', '/v1/integrations', openaiIntegration(mockB, 'acct-b', KEY_B))).status).to.equal(200);
  });
  after(async () => {
    await gw?.stop();
    await Promise.all([mockA?.close(), mockB?.close()]);
  });
  beforeEach(() => {
    mockA.reset();
    mockB.reset();
  });

  const chat = (headers: Record<string, string>, body: unknown = CHAT_BODY) => postJson(gw.url, '/v1/chat/completions', body, headers);

  it('x-gw-provider: @slug sends the stored key to the stored host', async () => {
    const res = await chat(chatHeaders({ 'x-gw-provider': '@acct-a' }));
    expect(res.status, res.text).to.equal(200);
    expect(res.json.object).to.equal('chat.completion');
    expect(res.headers.get('x-gw-provider')).to.equal('openai');
    expect(mockA.requests).to.have.length(1);
    expect(lastKey(mockA)).to.equal(KEY_A);
  });

  it('ignores the client\'s own key and host: a stored key never goes where the client says', async () => {
    const res = await chat(chatHeaders({ 'x-gw-provider': '@acct-a', authorization: 'Bearer sk-client', 'x-gw-custom-host': `${mockB.url}/v1` }));
    expect(res.status).to.equal(200);
    expect(lastKey(mockA)).to.equal(KEY_A);
    expect(mockB.requests).to.have.length(0);
  });

  it('works for the OpenAI SDK, whole and streamed, with a dummy apiKey', async () => {
    const client = new OpenAI({ apiKey: 'sk-not-used', baseURL: gw.url + '/v1', maxRetries: 0, defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': '@acct-b' } });
    const answer = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0]!.message.content).to.be.a('string');
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text.length).to.be.greaterThan(0);
    expect(mockB.requests.map((r) => r.headers['authorization'])).to.deep.equal([`Bearer ${KEY_B}`, `Bearer ${KEY_B}`]);
  });

  it('resolves @slug at any node of a config: each target gets its own integration', async () => {
    mockA.next({ status: 503 });
    const config = { strategy: { mode: 'fallback' }, targets: [{ provider: '@acct-a' }, { provider: '@acct-b' }] };
    const res = await chat(configHeaders(config));
    expect(res.status, res.text).to.equal(200);
    expect(res.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[1]');
    expect(lastKey(mockA)).to.equal(KEY_A);
    expect(lastKey(mockB)).to.equal(KEY_B);
  });

  it('gives children without a provider their parent\'s integration', async () => {
    const config = { provider: '@acct-a', strategy: { mode: 'loadbalance' }, targets: [{ weight: 1 }, { weight: 1, override_params: { temperature: 0 } }] };
    for (let i = 0; i < 4; i++) expect((await chat(configHeaders(config))).status).to.equal(200);
    expect(mockA.requests).to.have.length(4);
    expect(mockA.requests.every((r) => r.headers['authorization'] === `Bearer ${KEY_A}`)).to.equal(true);
  });

  it('never lets a child that names another provider inherit the stored key', async () => {
    // The child names plain openai and a host of its own, without a key: it must reach that host without KEY_A.
    const config = { provider: '@acct-a', strategy: { mode: 'single' }, targets: [{ provider: 'openai', custom_host: `${mockB.url}/v1` }] };
    const res = await chat(configHeaders(config));
    expect(res.status).to.equal(401); // the mock refuses a request without a key
    expect(mockB.requests).to.have.length(1);
    expect(mockB.requests[0]!.headers['authorization']).to.equal(undefined);
    expect(mockA.requests).to.have.length(0);
  });

  it('x-gw-virtual-key and virtual_key name an integration by id or slug', async () => {
    expect((await chat(chatHeaders({ 'x-gw-virtual-key': idA }))).status).to.equal(200);
    expect(lastKey(mockA)).to.equal(KEY_A);
    expect((await chat(configHeaders({ virtual_key: 'acct-b' }))).status).to.equal(200);
    expect(lastKey(mockB)).to.equal(KEY_B);
    const nested = { strategy: { mode: 'fallback' }, targets: [{ virtual_key: idA, override_params: { model: 'gpt-4o' } }] };
    expect((await chat(configHeaders(nested))).status).to.equal(200);
    expect(mockA.requests.at(-1)!.body.model).to.equal('gpt-4o');
  });

  it('refuses an unknown integration with a 400 naming it and where it was named', async () => {
    const direct = await chat(chatHeaders({ 'x-gw-provider': '@nope' }));
    expect(direct.status).to.equal(400);
    expect(direct.json.error).to.deep.include({ message: 'config.provider: no integration "@nope" (unknown or deleted)', code: 'invalid_config', param: 'provider' });
    const nested = await chat(configHeaders({ strategy: { mode: 'fallback' }, targets: [{ provider: '@acct-a' }, { virtual_key: 'nope' }] }));
    expect(nested.status).to.equal(400);
    expect(nested.json.error.message).to.equal('config.targets.1.virtual_key: no integration or virtual key "nope" (unknown or deleted)');
    const both = await chat(configHeaders({ provider: '@acct-a', virtual_key: 'acct-b' }));
    expect(both.json.error.message).to.equal('config.virtual_key: cannot be combined with provider "@acct-a": name the integration once');
    expect(mockA.requests.length + mockB.requests.length).to.equal(0);
  });

  it('refuses a deleted integration with a clear 400, at once', async () => {
    await call(gw, 'POST', '/v1/integrations', openaiIntegration(mockA, 'short-lived', 'sk-short-lived-0000'));
    expect((await chat(chatHeaders({ 'x-gw-provider': '@short-lived' }))).status).to.equal(200);
    expect((await call(gw, 'DELETE', '/v1/integrations/short-lived')).status).to.equal(200);
    const res = await chat(chatHeaders({ 'x-gw-provider': '@short-lived' }));
    expect(res.status).to.equal(400);
    expect(res.json.error.message).to.equal('config.provider: no integration "@short-lived" (unknown or deleted)');
  });

  it('uses a changed key on the very next request', async () => {
    await call(gw, 'POST', '/v1/integrations', openaiIntegration(mockA, 'changing', 'sk-old-key-0000000000'));
    await chat(chatHeaders({ 'x-gw-provider': '@changing' }));
    expect(lastKey(mockA)).to.equal('sk-old-key-0000000000');
    expect((await call(gw, 'PUT', '/v1/integrations/changing', { key: 'sk-new-key-1111111111' })).status).to.equal(200);
    await chat(chatHeaders({ 'x-gw-provider': '@changing' }));
    expect(lastKey(mockA)).to.equal('sk-new-key-1111111111');
    // A changed host, too.
    await call(gw, 'PUT', '/v1/integrations/changing', { configurations: { custom_host: `${mockB.url}/v1` } });
    await chat(chatHeaders({ 'x-gw-provider': '@changing' }));
    expect(lastKey(mockB)).to.equal('sk-new-key-1111111111');
  });

  it('refuses an integration the caller\'s workspace may not use (403), and allows it in its workspaces', async () => {
    await call(gw, 'POST', '/v1/integrations', openaiIntegration(mockA, 'ws-only', 'sk-ws-only-000000000', { allowed_workspaces: ['ws-1'] }));
    const other = await chat(chatHeaders({ 'x-gw-provider': '@ws-only', ...as({ workspaceId: 'ws-2' }) }));
    expect(other.status).to.equal(403);
    expect(other.json.error.message).to.equal('integration "@ws-only" is not allowed in workspace ws-2');
    expect((await chat(chatHeaders({ 'x-gw-provider': '@ws-only', ...as({ workspaceId: 'ws-1' }) }))).status).to.equal(200);
    expect((await chat(chatHeaders({ 'x-gw-virtual-key': 'ws-only', ...as({ workspaceId: 'ws-2' }) }))).status).to.equal(403);
    // An organisation key is not bound to a workspace.
    expect((await chat(chatHeaders({ 'x-gw-provider': '@ws-only' }))).status).to.equal(200);
    // Another organisation does not see it at all.
    expect((await chat(chatHeaders({ 'x-gw-provider': '@ws-only', ...as({ organisationId: 'org-2' }) }))).status).to.equal(400);
  });

  it('sends a model with its own custom_host there', async () => {
    await call(gw, 'POST', '/v1/integrations', openaiIntegration(mockA, 'per-model', 'sk-per-model-00000000'));
    await call(gw, 'PUT', '/v1/integrations/per-model/integration-models', { models: [{ slug: 'local-llama', configurations: { custom_host: `${mockB.url}/v1` } }] });
    expect((await chat(chatHeaders({ 'x-gw-provider': '@per-model' }), { ...CHAT_BODY, model: 'local-llama' })).status).to.equal(200);
    expect(mockB.requests).to.have.length(1);
    expect((await chat(chatHeaders({ 'x-gw-provider': '@per-model' }))).status).to.equal(200);
    expect(mockA.requests).to.have.length(1);
    // override_params.model decides too.
    const config = { provider: '@per-model', override_params: { model: 'local-llama' } };
    expect((await chat(configHeaders(config))).status).to.equal(200);
    expect(mockB.requests).to.have.length(2);
  });

  it('resolves secret mappings from the environment at request time', async () => {
    await call(gw, 'POST', '/v1/integrations', {
      slug: 'from-env', provider: 'openai', configurations: { custom_host: `${mockB.url}/v1` },
      secret_mappings: [{ target_field: 'key', secret_reference: 'GW_SECRET_REF_OPENAI' }],
    });
    expect((await chat(chatHeaders({ 'x-gw-provider': '@from-env' }))).status).to.equal(200);
    expect(lastKey(mockB)).to.equal(KEY_B);
  });

  it('answers 500 with what the operator must fix when a mapped secret is missing or not JSON', async () => {
    await call(gw, 'POST', '/v1/integrations', {
      slug: 'unset-env', provider: 'openai', configurations: { custom_host: `${mockB.url}/v1` },
      secret_mappings: [{ target_field: 'key', secret_reference: 'GW_SECRET_REF_NOT_SET' }],
    });
    const unset = await chat(chatHeaders({ 'x-gw-provider': '@unset-env' }));
    expect(unset.status).to.equal(500);
    expect(unset.json.error).to.deep.include({ code: 'integration_unusable', message: 'integration "@unset-env" (key → secret reference "GW_SECRET_REF_NOT_SET"): no such secret reference, or its environment variable is not set' });
    await call(gw, 'POST', '/v1/integrations', {
      slug: 'bad-json', provider: 'openai', key: 'k', configurations: { custom_host: `${mockB.url}/v1` },
      secret_mappings: [{ target_field: 'configurations.deployments', secret_reference: 'GW_SECRET_REF_BAD_JSON', value_format: 'json' }],
    });
    const bad = await chat(chatHeaders({ 'x-gw-provider': '@bad-json' }));
    expect(bad.status).to.equal(500);
    expect(bad.json.error.message).to.equal('integration "@bad-json": secret reference "GW_SECRET_REF_BAD_JSON" mapped to configurations.deployments is not valid JSON (value_format "json")');
    expect(mockB.requests).to.have.length(0);
  });

  it('answers @slug only for integrations with a default provider; its slug alias works too', async () => {
    await call(gw, 'POST', '/v1/integrations', openaiIntegration(mockA, 'no-provider', 'sk-no-provider-000000', { create_default_provider: false }));
    const res = await chat(chatHeaders({ 'x-gw-provider': '@no-provider' }));
    expect(res.status).to.equal(400);
    expect(res.json.error.message).to.equal('config.provider: integration "no-provider" has no default provider (create_default_provider: false): name it with virtual_key');
    expect((await chat(chatHeaders({ 'x-gw-virtual-key': 'no-provider' }))).status).to.equal(200);
    await call(gw, 'POST', '/v1/integrations', openaiIntegration(mockA, 'aliased', 'sk-aliased-0000000000', { default_provider_slug: 'openai-default' }));
    expect((await chat(chatHeaders({ 'x-gw-provider': '@openai-default' }))).status).to.equal(200);
    expect(lastKey(mockA)).to.equal('sk-aliased-0000000000');
  });
});
