/** The Vertex AI adapter against the shared chat conformance suite: Gemini, and Claude on Vertex. */
import AnthropicProviderPlugin from '../../../providers/anthropic/index.js';
import VertexProviderPlugin from '../../../providers/vertex-ai/index.js';
import type { VertexMock } from '../../fixtures/mock-vertex.js';
import { runConformance, type ProviderMockHandle } from '../conformance.js';
import { startMock, vertexConfig } from './service-account.js';

const plugins = [AnthropicProviderPlugin, VertexProviderPlugin];

describe('vertex-ai: Gemini', () => {
  runConformance({
    provider: 'vertex-ai',
    plugins,
    startMock,
    config: (mock: ProviderMockHandle) => vertexConfig(mock as VertexMock),
    model: 'gemini-2.0-flash-001',
  });
});

describe('vertex-ai: Claude on Vertex', () => {
  runConformance({
    provider: 'vertex-ai',
    plugins,
    startMock,
    config: (mock: ProviderMockHandle) => vertexConfig(mock as VertexMock),
    model: 'claude-3-5-sonnet-v2@20241022',
  });
});
