/**
 * cache.semantic: the `semantic` cache mode. Embeddings of the conversation's text come from any
 * loaded provider's embeddings endpoint (configured here, not per request), through the shared
 * transport. The vector index lives in this instance's memory, bounded by entries and bytes;
 * the entries themselves live in the CacheStore (shared through Redis when configured), so with
 * several instances exact hits are shared while semantic neighbours are found per instance.
 */
import { MAX_TIMER_MS, rateLimitedWarning, Services, Type, type Plugin, type PluginApi, type Static, type Transport } from '../../../core/index.js';
import { EmbeddingsClient } from './embeddings.js';
import { semanticMode } from './mode.js';
import { VectorIndex } from './vector-index.js';

const Options = Type.Object({
  /** Provider id of the embeddings endpoint (any loaded provider with `embed`). */
  provider: Type.String({ minLength: 1, default: 'openai' }),
  /** Its key; or name an environment variable holding it with `api_key_env`. */
  api_key: Type.Optional(Type.String({ minLength: 1 })),
  api_key_env: Type.Optional(Type.String({ minLength: 1 })),
  /** Base URL, as a config's `custom_host` (e.g. a private OpenAI-compatible server's `.../v1`). */
  custom_host: Type.Optional(Type.String({ pattern: '^https?://\\S+$' })),
  model: Type.String({ minLength: 1, default: 'text-embedding-3-small' }),
  /** Requested vector size, for models that take `dimensions`. */
  dimensions: Type.Optional(Type.Integer({ minimum: 1 })),
  /** Lowest cosine similarity served as a SEMANTIC HIT. */
  threshold: Type.Number({ minimum: 0, maximum: 1, default: 0.95 }),
  /** Vector index bounds: most vectors, most bytes (least recently used evicted first). */
  maxEntries: Type.Integer({ minimum: 1, default: 10_000 }),
  maxBytes: Type.Integer({ minimum: 4096, default: 64 * 1024 * 1024 }),
  /** Longest conversation text embedded (its last characters are kept). */
  maxTextChars: Type.Integer({ minimum: 1, default: 8000 }),
  /** Time allowed to the embeddings call; beyond it, a miss. */
  timeoutMs: Type.Integer({ minimum: 1, maximum: MAX_TIMER_MS, default: 2000 }),
}, { additionalProperties: false });

export type SemanticOptions = Static<typeof Options>;

export default class SemanticCachePlugin implements Plugin<SemanticOptions> {
  static readonly manifest = {
    id: 'cache.semantic',
    description: 'Cache mode "semantic": exact match, then nearest conversation by embeddings',
    dependsOn: ['cache.core'],
    options: Options,
  };

  apply(api: PluginApi<SemanticOptions>): void {
    const o = api.options;
    const apiKey = o.api_key ?? (o.api_key_env ? api.settings.env[o.api_key_env] : undefined);
    if (o.api_key_env && apiKey === undefined) api.logger.warn(`environment variable ${o.api_key_env} (api_key_env) is not set`);
    let transport: Transport | undefined;
    const embeddings = new EmbeddingsClient(
      { provider: o.provider, api_key: apiKey, custom_host: o.custom_host, model: o.model, dimensions: o.dimensions, timeoutMs: o.timeoutMs },
      api.registries,
      () => (transport ??= api.services.get(Services.Transport)),
    );
    const mode = semanticMode({
      embeddings,
      index: new VectorIndex(o.maxEntries, o.maxBytes),
      threshold: o.threshold,
      maxTextChars: o.maxTextChars,
      warn: rateLimitedWarning(api.logger),
      now: () => Date.now(),
    });
    api.registries.cacheModes.register(mode.mode, mode, api.id);
  }
}
