/**
 * The bench scenarios. Adding one is adding one entry here (see README.md).
 */

export interface Scenario {
  name: string;
  description: string;
  /** Request path on the gateway (and on the bare proxy, which forwards it as is). */
  path: string;
  body: Record<string, unknown>;
  /** Streamed: measured by time to first byte over sequential requests, not by autocannon. */
  stream?: boolean;
  /** Added to the request headers, e.g. an `x-gw-config` JSON; `{{upstream}}` becomes the upstream URL. */
  extraHeaders?: Record<string, string>;
  /** `proxy` (the bare pass-through proxy) or the name of another scenario run on the gateway. */
  baseline: string;
  /** Concurrent connections of the load generator (stream scenarios run one at a time). */
  connections: number;
  /** Extra gateway environment, e.g. { GW_REDIS_URL: 'redis://127.0.0.1:6379' }. */
  gatewayEnv?: Record<string, string>;
  /** Upstream delay before every stream chunk (ms). */
  upstreamChunkDelayMs?: number;
  /** Stream scenarios: sequential requests per side. */
  requests?: number;
}

const chatBody = {
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'You are a terse assistant.' },
    { role: 'user', content: 'Say hello in five words.' },
  ],
  max_tokens: 16,
};

/** The three cheap built-in checks of the `guardrails` scenario, as an inline guardrail's keys. */
function cheapChecks(rule: string): Record<string, unknown> {
  return {
    'default.regexMatch': { rule },
    'default.wordCount': { minWords: 1, maxWords: 200 },
    'default.requiredMetadataKeyPairs': { metadataPairs: { team: 'bench' } },
  };
}

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
    body: { ...chatBody, stream: true },
    baseline: 'proxy',
    connections: 32,
  },
  {
    name: 'anthropic-stream',
    description: 'streamed chat translated from Anthropic events to chat.completion.chunk, vs the bare proxy passing an OpenAI stream',
    path: '/v1/chat/completions',
    body: { ...chatBody, stream: true },
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
    name: 'guardrails',
    description: 'chat with three cheap checks (regex, word count, required metadata) as blocking input and output guardrails, vs plain chat',
    path: '/v1/chat/completions',
    body: chatBody,
    extraHeaders: {
      'x-gw-metadata': JSON.stringify({ team: 'bench' }),
      'x-gw-config': JSON.stringify({
        provider: 'openai',
        api_key: 'sk-bench',
        custom_host: '{{upstream}}/v1',
        input_guardrails: [{ id: 'input-checks', deny: true, ...cheapChecks('\\w') }],
        output_guardrails: [{ id: 'output-checks', deny: true, ...cheapChecks('Hello') }],
      }),
    },
    baseline: 'chat',
    connections: 32,
  },
  {
    name: 'stream',
    description: 'streamed chat, upstream waits 50 ms before each of 6 events: time to first byte proves no buffering',
    path: '/v1/chat/completions',
    body: { ...chatBody, stream: true },
    stream: true,
    baseline: 'proxy',
    connections: 1,
    upstreamChunkDelayMs: 50,
    requests: 50,
  },
];

export function findScenario(name: string): Scenario {
  const s = scenarios.find((x) => x.name === name);
  if (!s) throw new Error(`unknown scenario "${name}"; known: ${scenarios.map((x) => x.name).join(', ')}`);
  return s;
}
