/**
 * The built-in plugins by id, loaded lazily so a gateway file that leaves one out never imports it.
 * The default preset is every built-in, in this order (dependencies are re-ordered by the loader);
 * `minimal` is keyed inference to OpenAI-format providers; `none` loads nothing.
 */
import type { PluginClass } from '../core/index.js';
import { type MissingPluginHints } from '../core/missing-plugin.js';

type Loader = () => Promise<{ default: PluginClass }>;

export const BUILTIN_PLUGINS: Readonly<Record<string, Loader>> = {
  'store.sqlite': () => import('../plugins/stores/sqlite/index.js'),
  'store.postgres': () => import('../plugins/stores/postgres/index.js'),
  'auth.api-key': () => import('../plugins/security/api-key-auth/index.js'),
  'state.memory': () => import('../plugins/stores/state-memory/index.js'),
  'cache.store-memory': () => import('../plugins/cache/store-memory/index.js'),
  // After the memory stores: with GW_REDIS_URL it takes over their tokens.
  'store.redis': () => import('../plugins/stores/redis/index.js'),
  'cache.core': () => import('../plugins/cache/core/index.js'),
  'cache.simple': () => import('../plugins/cache/simple/index.js'),
  'cache.semantic': () => import('../plugins/cache/semantic/index.js'),
  'policy.circuit-breaker': () => import('../plugins/policies/circuit-breaker/index.js'),
  'policy.retry': () => import('../plugins/policies/retry/index.js'),
  'policy.request-timeout': () => import('../plugins/policies/request-timeout/index.js'),
  'policy.rate-limits': () => import('../plugins/policies/rate-limits/index.js'),
  'policy.usage-limits': () => import('../plugins/policies/usage-limits/index.js'),
  'observe.trace-ids': () => import('../plugins/observe/trace-ids/index.js'),
  'config.headers': () => import('../plugins/routing/config-headers/index.js'),
  'endpoints.inference': () => import('../plugins/routing/inference-endpoints/index.js'),
  'strategy.single': () => import('../plugins/strategies/single/index.js'),
  'strategy.loadbalance': () => import('../plugins/strategies/loadbalance/index.js'),
  'strategy.fallback': () => import('../plugins/strategies/fallback/index.js'),
  'strategy.conditional': () => import('../plugins/strategies/conditional/index.js'),
  'route.params': () => import('../plugins/routing/params/index.js'),
  'route.forward-headers': () => import('../plugins/routing/forward-headers/index.js'),
  'route.passthrough': () => import('../plugins/routing/passthrough/index.js'),
  'route.upstream': () => import('../plugins/routing/upstream/index.js'),
  // Opt-in (not in the default preset): it turns every unknown /v1 path into a provider call.
  'route.proxy': () => import('../plugins/routing/proxy/index.js'),
  'route.response-headers': () => import('../plugins/routing/response-headers/index.js'),
  'provider.openai': () => import('../providers/openai/index.js'),
  'provider.anthropic': () => import('../providers/anthropic/index.js'),
  'provider.bedrock': () => import('../providers/bedrock/index.js'),
  'provider.vertex-ai': () => import('../providers/vertex-ai/index.js'),
  'provider.azure-openai': () => import('../providers/azure-openai/index.js'),
  'provider.cohere': () => import('../providers/cohere/index.js'),
  'provider.voyage': () => import('../providers/voyage/index.js'),
  'provider.google': () => import('../providers/google/index.js'),
  'guardrails.runner': () => import('../plugins/guardrails/runner/index.js'),
  'guardrail.add-prefix': () => import('../guardrails/add-prefix/index.js'),
  'guardrail.allowed-request-types': () => import('../guardrails/allowed-request-types/index.js'),
  'guardrail.character-count': () => import('../guardrails/character-count/index.js'),
  'guardrail.contains': () => import('../guardrails/contains/index.js'),
  'guardrail.contains-code': () => import('../guardrails/contains-code/index.js'),
  'guardrail.ends-with': () => import('../guardrails/ends-with/index.js'),
  'guardrail.inline-image-urls': () => import('../guardrails/inline-image-urls/index.js'),
  'guardrail.json-keys': () => import('../guardrails/json-keys/index.js'),
  'guardrail.json-schema': () => import('../guardrails/json-schema/index.js'),
  'guardrail.jwt': () => import('../guardrails/jwt/index.js'),
  'guardrail.lasso': () => import('../guardrails/lasso/index.js'),
  'guardrail.letter-case': () => import('../guardrails/letter-case/index.js'),
  'guardrail.model-rules': () => import('../guardrails/model-rules/index.js'),
  'guardrail.model-whitelist': () => import('../guardrails/model-whitelist/index.js'),
  'guardrail.moderation': () => import('../guardrails/moderation/index.js'),
  'guardrail.not-null': () => import('../guardrails/not-null/index.js'),
  'guardrail.pii': () => import('../guardrails/pii/index.js'),
  'guardrail.regex-match': () => import('../guardrails/regex-match/index.js'),
  'guardrail.regex-replace': () => import('../guardrails/regex-replace/index.js'),
  'guardrail.required-metadata-key-pairs': () => import('../guardrails/required-metadata-key-pairs/index.js'),
  'guardrail.sentence-count': () => import('../guardrails/sentence-count/index.js'),
  'guardrail.valid-urls': () => import('../guardrails/valid-urls/index.js'),
  'guardrail.webhook': () => import('../guardrails/webhook/index.js'),
  'guardrail.word-count': () => import('../guardrails/word-count/index.js'),
  'security.secret-box': () => import('../plugins/security/secret-box/index.js'),
  'security.secret-references': () => import('../plugins/security/secret-references/index.js'),
  'feature.files': () => import('../plugins/features/files/index.js'),
  'feature.batches': () => import('../plugins/features/batches/index.js'),
  'feature.fine-tuning': () => import('../plugins/features/fine-tuning/index.js'),
  'feature.responses': () => import('../plugins/features/responses/index.js'),
  'feature.messages': () => import('../plugins/features/messages/index.js'),
  'feature.media': () => import('../plugins/features/media/index.js'),
  'feature.realtime': () => import('../plugins/features/realtime/index.js'),
  'feature.prompts': () => import('../plugins/features/prompts/index.js'),
  'admin.api-keys': () => import('../plugins/admin/api-keys/index.js'),
  'admin.workspaces': () => import('../plugins/admin/workspaces/index.js'),
  'identity.jwt': () => import('../plugins/identity/jwt/index.js'),
  'admin.integrations': () => import('../plugins/admin/integrations/index.js'),
  'agents.agent-servers': () => import('../plugins/agents/agent-servers/index.js'),
  'admin.configs': () => import('../plugins/admin/configs/index.js'),
  'admin.guardrails': () => import('../plugins/admin/guardrails/index.js'),
  'admin.models': () => import('../plugins/admin/models/index.js'),
  'admin.gateway-info': () => import('../plugins/admin/gateway-info/index.js'),
  'agents.mcp-servers': () => import('../plugins/agents/mcp-servers/index.js'),
  'agents.mcp-gateway': () => import('../plugins/agents/mcp-gateway/index.js'),
  'identity.sso': () => import('../plugins/identity/sso/index.js'),
  'identity.scim': () => import('../plugins/identity/scim/index.js'),
  'observe.access-log': () => import('../plugins/observe/access-log/index.js'),
  'observe.logs': () => import('../plugins/observe/logs/index.js'),
  'observe.analytics': () => import('../plugins/observe/analytics/index.js'),
  'observe.feedback': () => import('../plugins/observe/feedback/index.js'),
  'observe.metrics': () => import('../plugins/observe/metrics/index.js'),
  'observe.tracing': () => import('../plugins/observe/tracing/index.js'),
  'console.web': () => import('../plugins/console/web/index.js'),
};

/** Ids of built-ins that were renamed: gateway files naming the old id keep working. */
export const RENAMED_PLUGINS: Readonly<Record<string, string>> = Object.freeze({
  'observe.request-log': 'observe.access-log',
  'observe.trace': 'observe.trace-ids',
});

export const PRESETS: Readonly<Record<string, readonly string[]>> = {
  // One record store: store.postgres stands in for store.sqlite when GW_DATABASE_URL is set (presetPlugins).
  default: Object.keys(BUILTIN_PLUGINS).filter((id) => id !== 'store.postgres' && id !== 'route.proxy'),
  /** Inference behind a key: header configs, the OpenAI provider, one target per request. */
  minimal: [
    'store.sqlite', 'auth.api-key', 'config.headers', 'endpoints.inference',
    'route.upstream', 'provider.openai', 'strategy.single', 'route.response-headers',
  ],
  none: [],
};

/** A preset's plugin ids for these settings: the PostgreSQL record store when a database URL is set. */
export function presetPlugins(preset: readonly string[], settings: { databaseUrl?: string }): readonly string[] {
  if (!settings.databaseUrl) return preset;
  return preset.map((id) => (id === 'store.sqlite' ? 'store.postgres' : id));
}

/**
 * The route-config keys each built-in owns (its manifest `config`; a test checks the two agree), so
 * that a config naming a key of a plugin the gateway was composed without names the plugin to load.
 */
export const CONFIG_KEY_OWNERS: Readonly<Record<string, string>> = Object.freeze({
  ...owned('cache.core', ['cache']),
  ...owned('policy.retry', ['retry']),
  ...owned('policy.circuit-breaker', ['cb_config']),
  ...owned('policy.request-timeout', ['request_timeout']),
  ...owned('route.params', ['override_params', 'default_params', 'drop_params']),
  ...owned('route.forward-headers', ['forward_headers']),
  ...owned('route.passthrough', ['passthrough']),
  ...owned('guardrails.runner', ['before_request_hooks', 'after_request_hooks', 'input_guardrails', 'output_guardrails']),
  ...owned('feature.prompts', ['prompt_id']),
  ...owned('strategy.loadbalance', ['strategy.sticky']),
  ...owned('strategy.fallback', ['on_status_codes', 'strategy.on_status_codes']),
  ...owned('strategy.conditional', ['strategy.conditions', 'strategy.default']),
  ...owned('provider.openai', ['vendorD_organization', 'vendorD_project']),
  ...owned('provider.anthropic', ['strict_compat_compliance', 'strict_open_ai_compliance']),
  ...owned('provider.bedrock', ['cloudA_access_key_id', 'cloudA_secret_access_key', 'cloudA_region', 'cloudA_session_token']),
  ...owned('provider.vertex-ai', ['cloudC_project_id', 'cloudC_region', 'cloudC_service_account_json']),
  ...owned('provider.azure-openai', [
    'resource_name', 'deployment_id', 'api_version', 'deployments', 'cloudB_region', 'cloudB_deployment_name', 'cloudB_deployment_type',
    'cloudB_endpoint_name', 'cloudB_api_version', 'cloudB_resource_name', 'cloudB_deployment_id', 'cloudB_model_name', 'Authorization',
  ]),
});

/** The strategy modes and cache modes each built-in registers (a test checks them against a booted gateway). */
export const REGISTRY_ENTRY_OWNERS = Object.freeze({
  strategies: Object.freeze({
    single: 'strategy.single', loadbalance: 'strategy.loadbalance', fallback: 'strategy.fallback', conditional: 'strategy.conditional',
  }),
  cacheModes: Object.freeze({ simple: 'cache.simple', semantic: 'cache.semantic' }),
});

function owned(plugin: string, keys: readonly string[]): Record<string, string> {
  return Object.fromEntries(keys.map((key) => [key, plugin]));
}

/** The built-in plugins that fill the roles the kernel relies on, named in errors when missing. */
export const MISSING_PLUGIN_HINTS: MissingPluginHints = Object.freeze({
  configHeaders: Object.freeze({ headers: Object.freeze(['x-gw-config', 'x-gw-provider']), plugin: 'config.headers' }),
  providerCalls: 'route.upstream',
  configKeys: CONFIG_KEY_OWNERS,
  registryEntries: REGISTRY_ENTRY_OWNERS,
});
