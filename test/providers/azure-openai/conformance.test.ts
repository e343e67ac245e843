/** The azure-openai adapter against the shared chat conformance suite: an Azure OpenAI deployment and an Azure AI serverless endpoint. */
import AzureOpenAIProviderPlugin from '../../../providers/azure-openai/index.js';
import { startAzureMock } from '../../fixtures/mock-azure.js';
import { runConformance } from '../conformance.js';

runConformance({
  provider: 'azure-openai',
  plugins: [AzureOpenAIProviderPlugin],
  startMock: () => startAzureMock({ deployments: { 'gpt4o-prod': 'gpt-4o-2024-11-20' } }),
  config: (mock) => ({ provider: 'azure-openai', api_key: 'az-key', custom_host: mock.url, deployment_id: 'gpt4o-prod', api_version: '2024-10-21' }),
  model: 'gpt-4o',
});

runConformance({
  provider: 'azure-openai',
  plugins: [AzureOpenAIProviderPlugin],
  startMock: () => startAzureMock(),
  config: (mock) => ({
    provider: 'azure-openai', api_key: 'ai-key', custom_host: mock.url,
    cloudB_deployment_type: 'serverless', cloudB_endpoint_name: 'mistral-large', cloudB_region: 'eastus2',
  }),
  model: 'mistral-large-2411',
});
