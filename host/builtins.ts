/**
 * The built-in plugins by id, loaded lazily so a gateway file that leaves one out never imports it.
 * The default preset is every built-in, in this order (dependencies are re-ordered by the loader).
 */
import type { PluginClass } from '../core/index.js';

type Loader = () => Promise<{ default: PluginClass }>;

export const BUILTIN_PLUGINS: Readonly<Record<string, Loader>> = {
  'store.sqlite': () => import('../plugins/store-sqlite/index.js'),
  'auth.api-key': () => import('../plugins/auth-api-key/index.js'),
  'state.memory': () => import('../plugins/state-memory/index.js'),
  'policy.circuit-breaker': () => import('../plugins/circuit-breaker/index.js'),
  'policy.retry': () => import('../plugins/retry/index.js'),
  'policy.request-timeout': () => import('../plugins/request-timeout/index.js'),
  'observe.trace': () => import('../plugins/trace/index.js'),
  'config.headers': () => import('../plugins/config-headers/index.js'),
  'endpoints.inference': () => import('../plugins/inference-endpoints/index.js'),
  'strategy.single': () => import('../plugins/strategy-single/index.js'),
  'strategy.loadbalance': () => import('../plugins/strategy-loadbalance/index.js'),
  'strategy.fallback': () => import('../plugins/strategy-fallback/index.js'),
  'strategy.conditional': () => import('../plugins/strategy-conditional/index.js'),
  'route.params': () => import('../plugins/params/index.js'),
  'route.forward-headers': () => import('../plugins/forward-headers/index.js'),
  'route.passthrough': () => import('../plugins/passthrough/index.js'),
  'route.upstream': () => import('../plugins/upstream/index.js'),
  'route.response-headers': () => import('../plugins/response-headers/index.js'),
  'provider.openai': () => import('../providers/openai/index.js'),
  'provider.anthropic': () => import('../providers/anthropic/index.js'),
  'provider.bedrock': () => import('../providers/bedrock/index.js'),
  'provider.vertex-ai': () => import('../providers/vertex-ai/index.js'),
  'provider.azure-openai': () => import('../providers/azure-openai/index.js'),
  'provider.cohere': () => import('../providers/cohere/index.js'),
  'provider.voyage': () => import('../providers/voyage/index.js'),
  'observe.request-log': () => import('../plugins/request-log/index.js'),
};

export const PRESETS: Readonly<Record<string, readonly string[]>> = {
  default: Object.keys(BUILTIN_PLUGINS),
  none: [],
};
