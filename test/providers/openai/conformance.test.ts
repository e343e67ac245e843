/** The OpenAI adapter against the shared chat conformance suite (the reference case: pass-through). */
import OpenAIProviderPlugin from '../../../providers/openai/index.js';
import { startMockOpenAI } from '../../fixtures/mock-openai.js';
import { runConformance } from '../conformance.js';

runConformance({
  provider: 'openai',
  plugins: [OpenAIProviderPlugin],
  startMock: () => startMockOpenAI(),
  config: (mock) => ({ provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1` }),
  model: 'gpt-4o-mini',
});
