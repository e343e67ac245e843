/** URL, auth and target rules of the azure-openai adapter, without network. */
import { expect } from 'chai';
import { Registry, type AdapterInput, type ConfigNode, type ProviderAdapter, type UpstreamRequest } from '../../../core/index.js';
import { createAzureAdapter } from '../../../providers/azure-openai/adapter.js';

const adapter = createAzureAdapter(new Registry<ProviderAdapter>('provider'));

function input(target: ConfigNode, body: Record<string, unknown> = { model: 'gpt-4o', messages: [] }): AdapterInput {
  const request = { body, rawBody: undefined };
  return { attempt: { ctx: { request } }, target, endpoint: { id: 'chatComplete' }, body, stream: false } as unknown as AdapterInput;
}

async function build(target: ConfigNode, endpoint = 'chatComplete', model = 'gpt-4o'): Promise<UpstreamRequest> {
  return adapter.endpoints[endpoint]!.request(input({ provider: 'azure-openai', api_key: 'k', ...target }, { model, messages: [] }));
}

const DEPLOYMENTS = [
  { deployment_id: 'dep-mini', alias: 'gpt-4o-mini', api_version: '2024-06-01' },
  { deployment_id: 'dep-4o', alias: 'gpt-4o', api_version: '2024-10-21', is_default: true },
];

describe('azure-openai: URLs', () => {
  it('builds the Azure OpenAI URL from resource, deployment and api-version', async () => {
    const r = await build({ resource_name: 'my-res', deployment_id: 'dep one', api_version: '2024-10-21' });
    expect(r.url).to.equal('https://my-res.openai.azure.com/openai/deployments/dep%20one/chat/completions?api-version=2024-10-21');
    expect(r.method).to.equal('POST');
  });

  it('serves completions and embeddings under the same deployment', async () => {
    const t = { resource_name: 'r', deployment_id: 'd', api_version: 'v1' };
    expect((await build(t, 'complete')).url).to.equal('https://r.openai.azure.com/openai/deployments/d/completions?api-version=v1');
    expect((await build(t, 'embed')).url).to.equal('https://r.openai.azure.com/openai/deployments/d/embeddings?api-version=v1');
  });

  it('reads the cloudB_ spellings of resource, deployment and api-version', async () => {
    const r = await build({ cloudB_resource_name: 'res-b', cloudB_deployment_id: 'dep-b', cloudB_api_version: '2025-01-01-preview' });
    expect(r.url).to.equal('https://res-b.openai.azure.com/openai/deployments/dep-b/chat/completions?api-version=2025-01-01-preview');
    const byName = await build({ cloudB_resource_name: 'res-b', cloudB_deployment_name: 'dep-n', cloudB_api_version: 'v' });
    expect(byName.url).to.equal('https://res-b.openai.azure.com/openai/deployments/dep-n/chat/completions?api-version=v');
  });

  it('picks the deployments item whose alias is the request model, with its api_version', async () => {
    const r = await build({ resource_name: 'r', deployments: DEPLOYMENTS }, 'chatComplete', 'gpt-4o-mini');
    expect(r.url).to.equal('https://r.openai.azure.com/openai/deployments/dep-mini/chat/completions?api-version=2024-06-01');
  });

  it('falls back to the is_default item when no alias matches', async () => {
    const r = await build({ resource_name: 'r', deployments: DEPLOYMENTS }, 'chatComplete', 'o3');
    expect(r.url).to.equal('https://r.openai.azure.com/openai/deployments/dep-4o/chat/completions?api-version=2024-10-21');
  });

  it('prefers an alias match over a named deployment, and a named one over the default', async () => {
    const t = { resource_name: 'r', deployments: DEPLOYMENTS, deployment_id: 'named', api_version: 'vn' };
    expect((await build(t, 'chatComplete', 'gpt-4o-mini')).url).to.contain('/deployments/dep-mini/');
    expect((await build(t, 'chatComplete', 'other')).url).to.equal('https://r.openai.azure.com/openai/deployments/named/chat/completions?api-version=vn');
  });

  it('refuses a model that matches no alias when there is no default (400, no request built)', async () => {
    const t = { resource_name: 'r', deployments: [DEPLOYMENTS[0]!] };
    try {
      await build(t, 'chatComplete', 'gpt-5');
      expect.fail('expected a 400');
    } catch (e) {
      expect((e as { status: number }).status).to.equal(400);
      expect((e as Error).message).to.contain('"gpt-5" matches no alias');
    }
  });

  it('keeps the Azure OpenAI path layout below custom_host', async () => {
    const r = await build({ custom_host: 'http://127.0.0.1:9999/', deployment_id: 'd', api_version: 'v' });
    expect(r.url).to.equal('http://127.0.0.1:9999/openai/deployments/d/chat/completions?api-version=v');
  });

  it('builds serverless Azure AI URLs: {endpoint}.{region}.models.ai.azure.com/v1/...', async () => {
    const t = { cloudB_deployment_type: 'serverless', cloudB_endpoint_name: 'mistral-large-xyz', cloudB_region: 'eastus2' };
    expect((await build(t)).url).to.equal('https://mistral-large-xyz.eastus2.models.ai.azure.com/v1/chat/completions');
    expect((await build(t, 'embed')).url).to.equal('https://mistral-large-xyz.eastus2.models.ai.azure.com/v1/embeddings');
    const named = await build({ cloudB_deployment_type: 'serverless', cloudB_deployment_name: 'phi-4-abc', cloudB_region: 'swedencentral', cloudB_api_version: '2024-05-01-preview' });
    expect(named.url).to.equal('https://phi-4-abc.swedencentral.models.ai.azure.com/v1/chat/completions?api-version=2024-05-01-preview');
  });

  it('builds managed Azure AI URLs: {endpoint}.{region}.inference.ml.azure.com/v1/...', async () => {
    const r = await build({ cloudB_deployment_type: 'managed', cloudB_endpoint_name: 'my-endpoint', cloudB_region: 'westeurope' });
    expect(r.url).to.equal('https://my-endpoint.westeurope.inference.ml.azure.com/v1/chat/completions');
  });

  it('keeps the Azure AI path layout below custom_host', async () => {
    const r = await build({ cloudB_deployment_type: 'serverless', cloudB_endpoint_name: 'e', custom_host: 'http://127.0.0.1:1' });
    expect(r.url).to.equal('http://127.0.0.1:1/v1/chat/completions');
  });

  it('sends the client body bytes unchanged', async () => {
    const body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], temperature: 0.2 };
    const r = await adapter.endpoints['chatComplete']!.request(input({ resource_name: 'r', deployment_id: 'd', api_version: 'v', api_key: 'k' }, body));
    expect(JSON.parse(String(r.body))).to.deep.equal(body);
  });
});

describe('azure-openai: auth', () => {
  it('sends api_key as the api-key header to Azure OpenAI', async () => {
    const r = await build({ resource_name: 'r', deployment_id: 'd', api_version: 'v', api_key: 'secret' });
    expect(r.headers['api-key']).to.equal('secret');
    expect(r.headers['authorization']).to.equal(undefined);
  });

  it('sends the Authorization field as it is (token auth), without api-key', async () => {
    const r = await build({ resource_name: 'r', deployment_id: 'd', api_version: 'v', api_key: undefined, Authorization: 'Bearer entra-token' });
    expect(r.headers['authorization']).to.equal('Bearer entra-token');
    expect(r.headers['api-key']).to.equal(undefined);
  });

  it('sends api_key as a bearer token to Azure AI endpoints', async () => {
    const r = await build({ cloudB_deployment_type: 'serverless', cloudB_endpoint_name: 'e', cloudB_region: 'x', api_key: 'ai-key' });
    expect(r.headers['authorization']).to.equal('Bearer ai-key');
    expect(r.headers['api-key']).to.equal(undefined);
  });

  it('pins a managed endpoint to a named deployment with azureml-model-deployment', async () => {
    const r = await build({ cloudB_deployment_type: 'managed', cloudB_endpoint_name: 'ep', cloudB_deployment_name: 'blue', cloudB_region: 'x' });
    expect(r.headers['azureml-model-deployment']).to.equal('blue');
    expect(r.url).to.equal('https://ep.x.inference.ml.azure.com/v1/chat/completions');
  });
});

describe('azure-openai: target rules', () => {
  const check = (t: ConfigNode, path = '') => adapter.validateTarget!({ provider: 'azure-openai', ...t }, path);

  it('accepts complete Azure OpenAI, deployments, serverless and managed targets', () => {
    expect(check({ api_key: 'k', resource_name: 'r', deployment_id: 'd', api_version: 'v' })).to.deep.equal([]);
    expect(check({ Authorization: 'Bearer t', cloudB_resource_name: 'r', deployments: DEPLOYMENTS })).to.deep.equal([]);
    expect(check({ api_key: 'k', cloudB_deployment_type: 'serverless', cloudB_endpoint_name: 'e', cloudB_region: 'x' })).to.deep.equal([]);
    expect(check({ api_key: 'k', cloudB_deployment_type: 'managed', cloudB_endpoint_name: 'e', custom_host: 'http://h' })).to.deep.equal([]);
  });

  it('names each missing setting with its path', () => {
    expect(check({ resource_name: 'r', deployment_id: 'd', api_version: 'v' }, 'targets.1')).to.deep.equal([
      { path: 'targets.1.api_key', rule: 'is required for provider "azure-openai" (or Authorization: "Bearer <token>")' },
    ]);
    expect(check({ api_key: 'k', deployment_id: 'd', api_version: 'v' })[0]!.path).to.equal('resource_name');
    expect(check({ api_key: 'k', resource_name: 'r' })[0]!.path).to.equal('deployment_id');
    expect(check({ api_key: 'k', resource_name: 'r', deployment_id: 'd' })[0]!.path).to.equal('api_version');
    expect(check({ api_key: 'k', cloudB_deployment_type: 'serverless', cloudB_region: 'x' })[0]!.path).to.equal('cloudB_endpoint_name');
    expect(check({ api_key: 'k', cloudB_deployment_type: 'managed', cloudB_endpoint_name: 'e' })[0]!.path).to.equal('cloudB_region');
  });

  it('allows only one default deployment', () => {
    const list = [...DEPLOYMENTS, { deployment_id: 'x', alias: 'x', api_version: 'v', is_default: true }];
    expect(check({ api_key: 'k', resource_name: 'r', deployments: list })).to.deep.equal([
      { path: 'deployments.2.is_default', rule: 'only one deployment may be the default' },
    ]);
  });
});
