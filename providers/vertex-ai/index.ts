/**
 * provider.vertex-ai: Google Vertex AI (the spec's cloudC) — Gemini models, and Claude models on
 * Vertex through the anthropic provider's transforms (hence the dependency).
 */
import { MAX_TIMER_MS, ServiceAccountTokens, Services, Type, type Plugin, type PluginApi, type Static } from '../../core/index.js';
import { createVertexAdapter } from './adapter.js';
import { VERTEX_CONFIG } from './config-keys.js';

const Options = Type.Object({
  /** Exchange a new access token this long before the cached one expires (5 minutes). */
  tokenRefreshMarginMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 300_000 }),
  /** Distinct service accounts whose tokens are cached; the oldest is dropped beyond it. */
  tokenCacheSize: Type.Integer({ minimum: 1, default: 1000 }),
  /** Upper bound of one token exchange. */
  tokenExchangeTimeoutMs: Type.Integer({ minimum: 1, maximum: MAX_TIMER_MS, default: 10_000 }),
}, { additionalProperties: false });

export type VertexOptions = Static<typeof Options>;

export default class VertexProviderPlugin implements Plugin<VertexOptions> {
  static readonly manifest = {
    id: 'provider.vertex-ai',
    description: 'Google Vertex AI: Gemini, and Claude on Vertex',
    config: VERTEX_CONFIG,
    options: Options,
    dependsOn: ['provider.anthropic'],
  };

  apply(api: PluginApi<VertexOptions>): void {
    const transport = api.services.get(Services.Transport);
    const tokens = new ServiceAccountTokens(transport, {
      owner: 'vertex-ai',
      privateKeyPath: 'cloudC_service_account_json.private_key',
      refreshMarginMs: api.options.tokenRefreshMarginMs,
      maxEntries: api.options.tokenCacheSize,
      exchangeTimeoutMs: api.options.tokenExchangeTimeoutMs,
    });
    const adapter = createVertexAdapter({ tokens, anthropic: () => api.registries.providers.get('anthropic') });
    api.registries.providers.register(adapter.id, adapter, api.id);
  }
}
