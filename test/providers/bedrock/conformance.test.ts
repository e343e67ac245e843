/** The Bedrock adapter against the shared chat conformance suite (Converse / ConverseStream, SigV4). */
import BedrockProviderPlugin from '../../../providers/bedrock/index.js';
import { MOCK_AWS, startMockBedrock } from '../../fixtures/mock-bedrock.js';
import { runConformance } from '../conformance.js';

runConformance({
  provider: 'bedrock',
  plugins: [BedrockProviderPlugin],
  startMock: () => startMockBedrock(),
  config: (mock) => ({
    provider: 'bedrock',
    custom_host: mock.url,
    cloudA_region: MOCK_AWS.region,
    cloudA_access_key_id: MOCK_AWS.accessKeyId,
    cloudA_secret_access_key: MOCK_AWS.secretAccessKey,
  }),
  model: 'anthropic.claude-3-5-haiku-20241022-v1:0',
});
