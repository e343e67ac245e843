/**
 * The bench scenarios. Adding one is adding one entry here (see README.md).
 */

export interface Scenario {
  name: string;
  description: string;
  /** Request path on the gateway (and on the bare proxy, which forwards it as is). */
  path: string;
  body: Record<string, unknown>;
  /** Streamed: the body asks for a stream and the probe expects `data: [DONE]`. */
  stream?: boolean;
  /**
   * How the scenario is measured: `load` (default) by autocannon's throughput at `connections`;
   * `ttfb` by sequential streams' first byte against their whole time (is anything buffered?);
   * `latency` by a sequential loop at one connection with µs resolution, per side, alternating
   * request by request: the whole answer, or for a stream its first chunk.
   */
  measure?: 'load' | 'ttfb' | 'latency';
  /** Added to the request headers, e.g. an `x-gw-config` JSON; `{{upstream}}` becomes the upstream URL. */
  extraHeaders?: Record<string, string>;
  /** `proxy` (the bare pass-through proxy) or the name of another scenario run on the gateway. */
  baseline: string;
  /** Concurrent connections of the load generator (stream scenarios run one at a time). */
  connections: number;
  /** Extra gateway environment, e.g. { GW_REDIS_URL: 'redis://127.0.0.1:6379' }. */
  gatewayEnv?: Record<string, string>;
  /**
   * A gateway file (composition: preset, plugins, disable) the gateway starts with (GW_CONFIG);
   * `{{dist}}` in plugin paths is the compiled tree (dist/), e.g. `{{dist}}/plugins/x/index.js`.
   */
  gatewayComposition?: { preset?: string; plugins?: unknown[]; disable?: string[] };
  /**
   * Run once against the started gateway before anything is measured (stored records the scenario
   * names, ...); the headers it returns are added to this scenario's requests.
   */
  setup?(ctx: SetupContext): Promise<Record<string, string> | void>;
  /** Upstream delay before every stream chunk (ms). */
  upstreamChunkDelayMs?: number;
  /** Events of the upstream's OpenAI stream (default 6: role, 3 deltas, finish, `[DONE]`). */
  upstreamEvents?: number;
  /** `ttfb` and `latency` scenarios: sequential requests per side. */
  requests?: number;
  /**
   * Also report the gateway's own time per lifecycle stage: the scenario's composition loads the
   * `bench.stage-timings` plugin (stage-timings.ts), read at GET /bench/stages after the runs.
   */
  stages?: boolean;
}

export interface SetupContext {
  /** http://127.0.0.1:PORT of the gateway the scenario runs on. */
  gatewayUrl: string;
  /** http://127.0.0.1:PORT of the upstream. */
  upstreamUrl: string;
  /** The gateway's bootstrap key (organisation owner). */
  apiKey: string;
}

/** A control-plane call of a setup step; fails loudly. */
async function admin(ctx: SetupContext, method: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(ctx.gatewayUrl + path, {
    method,
    headers: { 'content-type': 'application/json', 'x-gw-api-key': ctx.apiKey },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`setup: ${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Setup step of `limits`: a rate-limit policy on every chat request per key, so high it never refuses (measures the check's cost). */
async function hugeRateLimit(ctx: SetupContext): Promise<void> {
  await admin(ctx, 'POST', '/v1/policies/rate-limits', {
    name: 'bench: huge limit',
    conditions: [{ key: 'endpoint_type', value: 'chatComplete' }],
    group_by: [{ key: 'api_key' }],
    type: 'requests',
    unit: 'rpm',
    value: 1e12,
  });
}

/** The limits plugins by path, so they load whether or not the preset has them. */
const LIMITS_PLUGINS = ['{{dist}}/plugins/policies/rate-limits/index.js'];

const chatBody = {
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'You are a terse assistant.' },
    { role: 'user', content: 'Say hello in five words.' },
  ],
  max_tokens: 16,
};

/** The observability plugins (logs, analytics, metrics, tracing), by path so they load whether or not the preset has them. */
const OBSERVE_PLUGINS = ['logs', 'analytics', 'metrics', 'tracing'].map((p) => `{{dist}}/plugins/observe/${p}/index.js`);
const OBSERVE_IDS = ['observe.logs', 'observe.analytics', 'observe.metrics', 'observe.tracing'];

/** The foundation plugins (issue 2): auth, config headers, single strategy, upstream, openai, one log line. */
const CORE_PLUGINS = ['store.sqlite', 'auth.api-key', 'state.memory', 'observe.trace-ids', 'config.headers', 'endpoints.inference',
  'strategy.single', 'route.upstream', 'route.response-headers', 'provider.openai', 'observe.access-log'];

/** The three cheap built-in checks of the `guardrails` scenario, as an inline guardrail's keys. */
function cheapChecks(rule: string): Record<string, unknown> {
  return {
    'default.regexMatch': { rule },
    'default.wordCount': { minWords: 1, maxWords: 200 },
    'default.requiredMetadataKeyPairs': { metadataPairs: { team: 'bench' } },
  };
}

/** Headers of the guardrails scenarios: a config (with the given guardrail arrays) and the metadata a check requires. */
function guardedHeaders(guardrails: Record<string, unknown>): Record<string, string> {
  return {
    'x-gw-metadata': JSON.stringify({ team: 'bench' }),
    'x-gw-config': JSON.stringify({ provider: 'openai', api_key: 'sk-bench', custom_host: '{{upstream}}/v1', ...guardrails }),
  };
}

/** The chat request at one connection; `stages` is it with the stage-timings plugin. */
const LATENCY: Scenario = {
  name: 'latency',
  description: 'the chat request at one connection, one at a time (µs): the latency the gateway adds',
  path: '/v1/chat/completions',
  body: chatBody,
  measure: 'latency',
  baseline: 'proxy',
  connections: 1,
  requests: 5000,
};

export const scenarios: Scenario[] = [
  {
    name: 'chat',
    description: 'non-streamed chat completion, direct mode (provider + custom host), no config',
    path: '/v1/chat/completions',
    body: chatBody,
    baseline: 'proxy',
    connections: 32,
  },
  {
    name: 'resilient',
    description: 'fallback over two targets with retry and a circuit breaker (success path), vs plain chat',
    path: '/v1/chat/completions',
    body: chatBody,
    extraHeaders: {
      'x-gw-config': JSON.stringify({
        strategy: { mode: 'fallback' },
        retry: { attempts: 2 },
        cb_config: { failure_threshold: 5, cooldown_interval: 30000 },
        targets: [
          { provider: 'openai', api_key: 'sk-bench', custom_host: '{{upstream}}/v1' },
          { provider: 'openai', api_key: 'sk-bench-2', custom_host: '{{upstream}}/v1' },
        ],
      }),
    },
    baseline: 'chat',
    connections: 32,
  },
  {
    name: 'stream-load',
    description: 'streamed chat under load (32 connections): OpenAI-format stream passed through, vs the bare proxy',
    path: '/v1/chat/completions',
    body: chatBody,
    stream: true,
    baseline: 'proxy',
    connections: 32,
  },
  {
    name: 'anthropic-stream',
    description: 'streamed chat translated from Anthropic events to chat.completion.chunk, vs the bare proxy passing an OpenAI stream',
    path: '/v1/chat/completions',
    body: chatBody,
    stream: true,
    extraHeaders: { 'x-gw-provider': 'anthropic' },
    baseline: 'proxy',
    connections: 32,
  },
  {
    name: 'cache-hit',
    description: 'the chat request answered from the response cache (cache: simple, memory store; the probe fills it) vs the bare proxy',
    path: '/v1/chat/completions',
    body: chatBody,
    extraHeaders: { 'x-gw-config': JSON.stringify({ cache: { mode: 'simple' } }) },
    baseline: 'proxy',
    connections: 32,
  },
  {
    name: 'cache-hit-core',
    description: 'cache-hit on the foundation plugins plus the cache (cache.core, cache.simple, memory store): what a hit costs without request logs, metrics and tracing, vs the bare proxy',
    path: '/v1/chat/completions',
    body: chatBody,
    extraHeaders: { 'x-gw-config': JSON.stringify({ cache: { mode: 'simple' } }) },
    baseline: 'proxy',
    connections: 32,
    gatewayComposition: { preset: 'none', plugins: [...CORE_PLUGINS, 'cache.store-memory', 'cache.core', 'cache.simple'] },
  },
  {
    name: 'guardrails',
    description: 'chat with three cheap checks (regex, word count, required metadata) as blocking input and output guardrails, vs the same request without them',
    path: '/v1/chat/completions',
    body: chatBody,
    extraHeaders: guardedHeaders({
      input_guardrails: [{ id: 'input-checks', deny: true, ...cheapChecks('\\w') }],
      output_guardrails: [{ id: 'output-checks', deny: true, ...cheapChecks('Hello') }],
    }),
    baseline: 'guardrails-off',
    connections: 32,
  },
  {
    name: 'guardrails-off',
    description: 'the guardrails scenario\'s request (config header, metadata) without its guardrails: the no-guardrail baseline, vs plain chat',
    path: '/v1/chat/completions',
    body: chatBody,
    extraHeaders: guardedHeaders({}),
    baseline: 'chat',
    connections: 32,
  },
  {
    name: 'chat-core',
    description: 'plain chat on the kernel with the foundation plugins only (auth, config headers, single strategy, upstream, openai, one log line), vs the bare proxy',
    path: '/v1/chat/completions',
    body: chatBody,
    baseline: 'proxy',
    connections: 32,
    gatewayComposition: {
      preset: 'none',
      plugins: CORE_PLUGINS,
    },
  },
  {
    name: 'observed-off',
    description: 'plain chat on a gateway without request logs, analytics, metrics and tracing (the baseline of observed), vs the bare proxy',
    path: '/v1/chat/completions',
    body: chatBody,
    baseline: 'proxy',
    connections: 32,
    gatewayComposition: { disable: OBSERVE_IDS },
  },
  {
    name: 'observed',
    description: 'plain chat with request logs (SQLite, batched), metrics and tracing on, vs the same gateway without them',
    path: '/v1/chat/completions',
    body: chatBody,
    baseline: 'observed-off',
    connections: 32,
    gatewayComposition: { plugins: OBSERVE_PLUGINS },
  },
  {
    name: 'stored',
    description: 'chat through a stored config (x-gw-config = its id) whose provider is a stored integration (@slug), vs plain direct-mode chat',
    path: '/v1/chat/completions',
    body: chatBody,
    baseline: 'chat',
    connections: 32,
    gatewayComposition: { plugins: ['{{dist}}/plugins/admin/integrations/index.js', '{{dist}}/plugins/admin/configs/index.js'] },
    async setup(ctx) {
      await admin(ctx, 'POST', '/v1/integrations', { slug: 'bench-openai', provider: 'openai', key: 'sk-bench', configurations: { custom_host: `${ctx.upstreamUrl}/v1` } });
      const config = await admin(ctx, 'POST', '/v1/configs', { slug: 'bench-stored', config: { provider: '@bench-openai' } });
      return { 'x-gw-config': String(config['id']) };
    },
  },
  {
    name: 'limits',
    description: 'chat under a rate-limit policy (huge limit: one counter increment per request) with request logs, metrics and tracing on, vs the gateway without them',
    path: '/v1/chat/completions',
    body: chatBody,
    baseline: 'observed-off',
    connections: 32,
    gatewayComposition: { plugins: [...OBSERVE_PLUGINS, ...LIMITS_PLUGINS] },
    setup: hugeRateLimit,
  },
  {
    name: 'limits-redis',
    description: 'limits with its counters in Redis (GW_REDIS_URL, needs Redis on 127.0.0.1:6379), vs limits with memory counters: the added latency of a shared counter',
    path: '/v1/chat/completions',
    body: chatBody,
    baseline: 'limits',
    connections: 32,
    gatewayEnv: { GW_REDIS_URL: 'redis://127.0.0.1:6379' },
    gatewayComposition: { plugins: [...OBSERVE_PLUGINS, ...LIMITS_PLUGINS] },
    setup: hugeRateLimit,
  },
  {
    name: 'stream',
    description: 'streamed chat, upstream waits 50 ms before each of 6 events: time to first byte proves no buffering',
    path: '/v1/chat/completions',
    body: chatBody,
    stream: true,
    measure: 'ttfb',
    baseline: 'proxy',
    connections: 1,
    upstreamChunkDelayMs: 50,
    requests: 50,
  },
  {
    name: 'paced-streams',
    description: 'streams of 20 events, the upstream waiting 5 ms before each, at 64 connections: does the gateway keep the pace?',
    path: '/v1/chat/completions',
    body: chatBody,
    stream: true,
    baseline: 'proxy',
    connections: 64,
    upstreamChunkDelayMs: 5,
    upstreamEvents: 20,
  },
  LATENCY,
  {
    ...LATENCY,
    name: 'latency-core',
    description: 'the latency scenario on the foundation plugins only (as chat-core): what the kernel itself adds at one connection (µs)',
    gatewayComposition: { preset: 'none', plugins: CORE_PLUGINS },
  },
  {
    ...LATENCY,
    name: 'stages',
    description: 'the latency scenario with the bench.stage-timings plugin loaded: where the gateway\'s time goes, stage by stage (µs)',
    gatewayComposition: { plugins: ['{{dist}}/test/bench/stage-timings.js'] },
    stages: true,
  },
  {
    name: 'first-chunk',
    description: 'time to the first chunk of an OpenAI stream passed through, one at a time (µs)',
    path: '/v1/chat/completions',
    body: chatBody,
    stream: true,
    measure: 'latency',
    baseline: 'proxy',
    connections: 1,
    requests: 3000,
  },
  {
    name: 'anthropic-first-chunk',
    description: 'time to the first chunk of a stream translated from Anthropic events, vs the bare proxy passing an OpenAI stream (µs)',
    path: '/v1/chat/completions',
    body: chatBody,
    stream: true,
    extraHeaders: { 'x-gw-provider': 'anthropic' },
    measure: 'latency',
    baseline: 'proxy',
    connections: 1,
    requests: 3000,
  },
];

export function findScenario(name: string): Scenario {
  const s = scenarios.find((x) => x.name === name);
  if (!s) throw new Error(`unknown scenario "${name}"; known: ${scenarios.map((x) => x.name).join(', ')}`);
  return s;
}
