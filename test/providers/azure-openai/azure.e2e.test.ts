/** The azure-openai provider end to end: URL forms and auth as the mock Azure sees them, deployments, rerank, rules. */
import { expect } from 'chai';
import OpenAI from 'openai';
import AzureOpenAIProviderPlugin from '../../../providers/azure-openai/index.js';
import CohereProviderPlugin from '../../../providers/cohere/index.js';
import { startAzureMock, type MockAzure } from '../../fixtures/mock-azure.js';
import { configHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../../helpers/gateway.js';

const CHAT = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi azure' }] };
const DEPLOYMENTS = [
  { deployment_id: 'mini-dep', alias: 'gpt-4o-mini', api_version: '2024-06-01' },
  { deployment_id: 'big-dep', alias: 'gpt-4o', api_version: '2024-10-21', is_default: true },
];
const RERANK = {
  model: 'cohere.rerank-v3.5',
  query: 'capital of France',
  documents: ['Berlin is in Germany', { text: 'Paris is the capital of France', id: 'doc-7' }, 'France exports wine'],
};

describe('azure-openai provider (end to end)', () => {
  let mock: MockAzure;
  let gw: TestGateway;

  before(async () => {
    mock = await startAzureMock({ deployments: { 'mini-dep': 'gpt-4o-mini-2024-07-18', 'big-dep': 'gpt-4o-2024-11-20', plain: 'gpt-4o-2024-11-20' } });
    gw = await startGateway({ plugins: [AzureOpenAIProviderPlugin, CohereProviderPlugin] });
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  const openai = (extra: Record<string, unknown>) => ({ provider: 'azure-openai', custom_host: mock.url, ...extra });

  it('key auth: api-key header, deployment path and api-version query; the model is the one Azure reports', async () => {
    const reply = await postJson(gw.url, '/v1/chat/completions', CHAT, configHeaders(openai({ api_key: 'az-secret', deployment_id: 'plain', api_version: '2024-10-21' })));
    expect(reply.status).to.equal(200);
    expect(reply.json.model).to.equal('gpt-4o-2024-11-20');
    expect(reply.json.choices[0].message.content).to.equal('echo: hi azure');
    expect(reply.headers.get('x-gw-provider')).to.equal('azure-openai');
    const sent = mock.requests[0]!;
    expect(sent.path).to.equal('/openai/deployments/plain/chat/completions?api-version=2024-10-21');
    expect(sent.headers['api-key']).to.equal('az-secret');
    expect(sent.headers['authorization']).to.equal(undefined);
    expect(sent.body).to.deep.equal(CHAT);
  });

  it('token auth: the Authorization field is sent as it is', async () => {
    const reply = await postJson(gw.url, '/v1/chat/completions', CHAT, configHeaders(openai({ Authorization: 'Bearer entra-token', deployment_id: 'plain', api_version: 'v1' })));
    expect(reply.status).to.equal(200);
    expect(mock.requests[0]!.headers['authorization']).to.equal('Bearer entra-token');
    expect(mock.requests[0]!.headers['api-key']).to.equal(undefined);
  });

  it('direct mode: x-gw-* headers name the deployment, Authorization carries the key', async () => {
    const reply = await postJson(gw.url, '/v1/chat/completions', CHAT, {
      'content-type': 'application/json',
      'x-gw-api-key': TEST_API_KEY,
      'x-gw-provider': 'azure-openai',
      authorization: 'Bearer direct-key',
      'x-gw-custom-host': mock.url,
      'x-gw-deployment-id': 'plain',
      'x-gw-api-version': '2024-10-21',
    });
    expect(reply.status).to.equal(200);
    expect(mock.requests[0]!.headers['api-key']).to.equal('direct-key');
  });

  it('deployments: the alias matching the model picks the deployment and its api_version; else the default', async () => {
    const headers = configHeaders(openai({ api_key: 'k', deployments: DEPLOYMENTS }));
    const mini = await postJson(gw.url, '/v1/chat/completions', { ...CHAT, model: 'gpt-4o-mini' }, headers);
    expect(mini.status).to.equal(200);
    expect(mini.json.model).to.equal('gpt-4o-mini-2024-07-18');
    const other = await postJson(gw.url, '/v1/chat/completions', { ...CHAT, model: 'something-else' }, headers);
    expect(other.status).to.equal(200);
    expect(mock.requests.map((r) => r.path)).to.deep.equal([
      '/openai/deployments/mini-dep/chat/completions?api-version=2024-06-01',
      '/openai/deployments/big-dep/chat/completions?api-version=2024-10-21',
    ]);
  });

  it('a model that matches no alias and no default is a 400 that never reaches Azure', async () => {
    const headers = configHeaders(openai({ api_key: 'k', deployments: [DEPLOYMENTS[0]] }));
    const reply = await postJson(gw.url, '/v1/chat/completions', { ...CHAT, model: 'gpt-5' }, headers);
    expect(reply.status).to.equal(400);
    expect(reply.json.error.code).to.equal('unknown_deployment');
    expect(mock.requests).to.have.length(0);
  });

  it('an unknown deployment comes back as Azure\'s 404 with provider azure-openai', async () => {
    const reply = await postJson(gw.url, '/v1/chat/completions', CHAT, configHeaders(openai({ api_key: 'k', deployment_id: 'nope', api_version: 'v' })));
    expect(reply.status).to.equal(404);
    expect(reply.json.provider).to.equal('azure-openai');
    expect(reply.json.error.code).to.equal('DeploymentNotFound');
  });

  it('streams without Azure\'s prompt-filter annotation event', async () => {
    const reply = await postJson(gw.url, '/v1/chat/completions', { ...CHAT, stream: true }, configHeaders(openai({ api_key: 'k', deployment_id: 'plain', api_version: 'v' })));
    expect(reply.status).to.equal(200);
    expect(reply.text).to.not.contain('prompt_filter_results');
    const first = JSON.parse(reply.text.split('\n\n')[0]!.slice('data: '.length));
    expect(first.object).to.equal('chat.completion.chunk');
    expect(first.choices[0].delta.role).to.equal('assistant');
  });

  it('embeddings through the openai SDK', async () => {
    const client = new OpenAI({
      apiKey: 'sk-x', baseURL: `${gw.url}/v1`, maxRetries: 0,
      defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(openai({ api_key: 'k', deployment_id: 'plain', api_version: 'v' })) },
    });
    const res = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['one', 'two'] });
    expect(res.data).to.have.length(2);
    expect(res.data[0]!.embedding).to.have.length(16);
    expect(mock.requests[0]!.path).to.equal('/openai/deployments/plain/embeddings?api-version=v');
  });

  it('serverless and managed Azure AI endpoints take the key as a bearer token', async () => {
    const serverless = await postJson(gw.url, '/v1/chat/completions', CHAT, configHeaders({
      provider: 'azure-openai', api_key: 'ai-key', custom_host: mock.url, cloudB_deployment_type: 'serverless', cloudB_endpoint_name: 'llama', cloudB_region: 'eastus',
    }));
    expect(serverless.status).to.equal(200);
    const managed = await postJson(gw.url, '/v1/chat/completions', CHAT, configHeaders({
      provider: 'azure-openai', api_key: 'ml-key', custom_host: mock.url, cloudB_deployment_type: 'managed', cloudB_endpoint_name: 'ep', cloudB_deployment_name: 'blue', cloudB_region: 'eastus',
    }));
    expect(managed.status).to.equal(200);
    const [s, m] = mock.requests;
    expect(s!.path).to.equal('/v1/chat/completions');
    expect(s!.headers['authorization']).to.equal('Bearer ai-key');
    expect(m!.headers['authorization']).to.equal('Bearer ml-key');
    expect(m!.headers['azureml-model-deployment']).to.equal('blue');
  });

  describe('rerank', () => {
    const serverless = () => configHeaders({
      provider: 'azure-openai', api_key: 'ai-key', custom_host: mock.url, cloudB_deployment_type: 'serverless', cloudB_endpoint_name: 'cohere-rerank', cloudB_region: 'eastus',
    });

    it('a Cohere rerank deployment: /v2/rerank, the cohere. prefix stripped, results sorted with documents', async () => {
      const reply = await postJson(gw.url, '/v1/rerank', RERANK, serverless());
      expect(reply.status).to.equal(200);
      const sent = mock.requests[0]!;
      expect(sent.path).to.equal('/v2/rerank');
      expect(sent.headers['authorization']).to.equal('Bearer ai-key');
      expect(sent.body.model).to.equal('rerank-v3.5');
      expect(sent.body.documents).to.deep.equal(['Berlin is in Germany', 'Paris is the capital of France', 'France exports wine']);
      expect(reply.json.object).to.equal('list');
      expect(reply.json.provider).to.equal('azure-openai');
      expect(reply.json.results.map((r: { index: number }) => r.index)).to.deep.equal([1, 2, 0]);
      expect(reply.json.results[0].document).to.deep.equal({ text: 'Paris is the capital of France' });
      expect(reply.json.usage.search_units).to.equal(1);
      expect(reply.headers.get('x-gw-provider')).to.equal('azure-openai');
    });

    it('is refused with 400 on the Azure OpenAI form (no Azure AI deployment type)', async () => {
      const reply = await postJson(gw.url, '/v1/rerank', RERANK, configHeaders(openai({ api_key: 'k', deployment_id: 'plain', api_version: 'v' })));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.code).to.equal('unsupported_endpoint');
      expect(mock.requests).to.have.length(0);
    });

    it('passes Azure\'s error on with provider azure-openai', async () => {
      mock.next({ status: 429 });
      const reply = await postJson(gw.url, '/v1/rerank', RERANK, serverless());
      expect(reply.status).to.equal(429);
      expect(reply.json.provider).to.equal('azure-openai');
      expect(reply.json.error.message).to.contain('exceeded token rate limit');
    });
  });

  describe('config rules (400 before any request)', () => {
    it('names the missing resource', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT, configHeaders({ provider: 'azure-openai', api_key: 'k', deployment_id: 'd', api_version: 'v' }));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.equal('config.resource_name: is required for provider "azure-openai" (or cloudB_resource_name, or custom_host)');
    });

    it('names the missing credential of a nested target', async () => {
      const config = { strategy: { mode: 'single' }, targets: [{ provider: 'azure-openai', resource_name: 'r', deployment_id: 'd', api_version: 'v' }] };
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT, configHeaders(config));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.param).to.equal('targets.0.api_key');
    });
  });
});

describe('azure-openai rerank without provider.cohere', () => {
  let mock: MockAzure;
  let gw: TestGateway;
  before(async () => {
    mock = await startAzureMock();
    gw = await startGateway({ composition: { plugins: [AzureOpenAIProviderPlugin], disable: ['provider.cohere'] } });
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });

  it('answers 400 naming the plugin it needs', async () => {
    const reply = await postJson(gw.url, '/v1/rerank', RERANK, configHeaders({
      provider: 'azure-openai', api_key: 'k', custom_host: mock.url, cloudB_deployment_type: 'serverless', cloudB_endpoint_name: 'e',
    }));
    expect(reply.status).to.equal(400);
    expect(reply.json.error.message).to.contain('provider.cohere');
    expect(mock.requests).to.have.length(0);
  });
});
