/** The Cohere adapter (v2 chat, translated both ways) against the shared chat conformance suite. */
import CohereProviderPlugin from '../../../providers/cohere/index.js';
import { startCohereMock } from '../../fixtures/mock-cohere.js';
import { runConformance } from '../conformance.js';

runConformance({
  provider: 'cohere',
  plugins: [CohereProviderPlugin],
  startMock: () => startCohereMock(),
  config: (mock) => ({ provider: 'cohere', api_key: 'co-test', custom_host: `${mock.url}/v2` }),
  model: 'command-a-03-2025',
});
