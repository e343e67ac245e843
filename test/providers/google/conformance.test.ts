/** The google (Gemini API) adapter against the shared chat conformance suite. */
import GoogleProviderPlugin from '../../../providers/google/index.js';
import { GEMINI_TEST_KEY, startMockGeminiApi } from '../../fixtures/mock-gemini-api.js';
import { runConformance, type ProviderMockHandle } from '../conformance.js';

describe('google: the Gemini API', () => {
  runConformance({
    provider: 'google',
    plugins: [GoogleProviderPlugin],
    startMock: startMockGeminiApi,
    config: (mock: ProviderMockHandle) => ({ provider: 'google', api_key: GEMINI_TEST_KEY, custom_host: `${mock.url}/v1beta` }),
    model: 'gemini-2.0-flash',
  });
});
