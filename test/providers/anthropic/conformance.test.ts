/** The Anthropic adapter against the shared chat conformance suite, through its loopback mock. */
import AnthropicProviderPlugin from '../../../providers/anthropic/index.js';
import { startAnthropicMock } from '../../fixtures/mock-anthropic.js';
import { runConformance } from '../conformance.js';

runConformance({
  provider: 'anthropic',
  plugins: [AnthropicProviderPlugin],
  startMock: () => startAnthropicMock(),
  config: (mock) => ({ provider: 'anthropic', api_key: 'sk-ant-test', custom_host: `${mock.url}/v1` }),
  model: 'claude-sonnet-4-5',
});
