/**
 * Valid starting points for the fuzz: a body per route family and configs that exercise each
 * routing feature. `{HOST}` stands for a loopback base URL of the mock provider.
 */
export const CHAT = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], temperature: 0.5, max_tokens: 16 };

export function configSeeds(host: string): unknown[] {
  const openai = { provider: 'openai', api_key: 'sk-fuzz', custom_host: host };
  return [
    openai,
    { ...openai, retry: { attempts: 2, on_status_codes: [429, 500] }, request_timeout: 5000 },
    { strategy: { mode: 'fallback', on_status_codes: [500, 502] }, targets: [{ ...openai, custom_host: 'http://127.0.0.1:1/v1' }, openai] },
    { strategy: { mode: 'loadbalance' }, targets: [{ ...openai, weight: 0.7 }, { ...openai, weight: 0.3 }] },
    {
      strategy: { mode: 'conditional', conditions: [{ query: { 'metadata.team': { $regex: '^a.*' } }, then: 'a' }], default: 'b' },
      targets: [{ ...openai, name: 'a' }, { ...openai, name: 'b' }],
    },
    { ...openai, cache: { mode: 'simple', max_age: 60 } },
    { ...openai, cb_config: { failure_threshold: 3, cooldown_interval: 30000 } },
    { ...openai, override_params: { temperature: 0.1, model: 'gpt-4o-mini' }, default_params: { max_tokens: 8 }, drop_params: ['user'] },
    { ...openai, forward_headers: ['x-team'] },
    { ...openai, passthrough: true },
    {
      ...openai,
      input_guardrails: [{ 'default.wordCount': { minWords: 1, maxWords: 100 }, deny: true }],
      output_guardrails: [{ 'default.regexMatch': { rule: '^[\\s\\S]*$' } }],
      before_request_hooks: [{ id: 'h1', type: 'mutator', checks: [{ id: 'default.regexReplace', parameters: { rule: 'secret', replacement: '***' } }] }],
    },
  ];
}

/** A body for a route, by its path; undefined for routes without one. */
export function bodySeeds(path: string, host: string): unknown[] {
  const config = configSeeds(host)[0];
  if (path === '/v1/chat/completions') return [CHAT, { ...CHAT, stream: true }, { ...CHAT, tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }] }];
  if (path === '/v1/completions') return [{ model: 'gpt-3.5-turbo-instruct', prompt: 'hi', max_tokens: 5 }];
  if (path === '/v1/embeddings') return [{ model: 'text-embedding-3-small', input: ['a', 'b'] }];
  if (path === '/v1/moderations') return [{ input: 'hello' }];
  if (path === '/v1/rerank') return [{ model: 'rerank-v3.5', query: 'q', documents: ['a', { text: 'b' }], top_n: 1 }];
  if (path === '/v1/responses') return [{ model: 'gpt-4o-mini', input: 'hi', store: true }, { model: 'gpt-4o-mini', input: [{ role: 'user', content: 'hi' }], stream: true }];
  if (path === '/v1/batches') return [{ input_file_id: 'file-x', endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { a: 'b' } }];
  if (path === '/v1/fine_tuning/jobs') return [{ model: 'gpt-4o-mini', training_file: 'file-x', suffix: 's', method: { type: 'supervised' } }];
  if (path === '/v1/api-keys') return [{ name: 'k', type: 'organisation-service', scopes: ['api_keys.read'] }, { name: 'u', type: 'workspace-user', workspace_id: 'ws-anything', user_id: 'u-1', ttl: 3600 }];
  if (path === '/v1/api-keys/:id') return [{ name: 'renamed', scopes: ['logs.read'] }];
  if (path === '/v1/api-keys/:id/rotate') return [{ key_transition_period_ms: 1_800_000 }];
  if (path === '/v1/configs' || path === '/v1/configs/:id') return [{ slug: 'cfg', config }, { name: 'n', config: configSeeds(host)[2] }];
  if (path === '/v1/guardrails' || path === '/v1/guardrails/:id') return [{ name: 'g', slug: 'g', checks: [{ id: 'default.regexMatch', parameters: { rule: '^[a-z ]+$' } }], actions: { deny: true } }];
  if (path.startsWith('/v1/integrations')) return [{ name: 'i', slug: 'acct', provider: 'openai', key: 'sk-x', configurations: { custom_host: host } }];
  if (path.startsWith('/v1/prompts/')) return [{ string: 'Hello {{name}}', parameters: { model: 'gpt-4o-mini' }, config }, { variables: { name: 'x' } }];
  if (path.startsWith('/v1/policies/rate-limits')) return [{ conditions: [{ key: 'api_key', value: '*' }], group_by: [{ key: 'api_key' }], type: 'requests', unit: 'rpm', value: 100 }];
  if (path.startsWith('/v1/policies/usage-limits')) return [{ conditions: [{ key: 'api_key', value: '*' }], group_by: [{ key: 'api_key' }], type: 'cost', credit_limit: 10, periodic_reset: 'monthly' }];
  if (path.startsWith('/v1/workspaces')) return [{ name: 'w', slug: 'w1' }, { user_id: 'u-1', role: 'member' }, { settings: { a: 1 } }];
  if (path === '/v1/users') return [{ email: 'a@b.test', name: 'A' }];
  if (path === '/v1/organisation/settings') return [{ key_rotation_period_ms: 86_400_000 }];
  return [{}];
}

/** Query strings for list and read routes. */
export const QUERY_SEEDS: readonly Record<string, string>[] = [
  {}, { limit: '10' }, { limit: '-1' }, { limit: '1e9' }, { limit: 'abc' }, { after: 'x' }, { offset: '9007199254740993' },
  { start_time: '0' }, { start_time: '9999999999999999' }, { end_time: '-1' }, { status: 'archived' }, { version: '0' }, { version: '1e400' },
  { 'metadata.team': 'a' }, { include: 'message.input_image.image_url' },
];
