/** Shared set-up of the cache tests: the cache plugins, leaf configs, a fake output guardrail. */
import { JsonPayload, type Plugin, type PluginApi, type PluginEntry } from '../../../../core/index.js';
import CachePlugin from '../../../../plugins/cache/core/index.js';
import SimpleCachePlugin from '../../../../plugins/cache/simple/index.js';
import MemoryCacheStorePlugin from '../../../../plugins/cache/store-memory/index.js';
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import { configHeaders, postJson, type JsonReply } from '../../../helpers/gateway.js';

export type Config = Record<string, unknown>;

/** The memory store, the cache and its simple mode, in load order. */
export const CACHE_PLUGINS: PluginEntry[] = [MemoryCacheStorePlugin, CachePlugin, SimpleCachePlugin];

export function leaf(mock: MockOpenAI, extra: Config = {}): Config {
  return { provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`, ...extra };
}

export function cached(mock: MockOpenAI, cache: Config = { mode: 'simple' }, extra: Config = {}): Config {
  return { ...leaf(mock, extra), cache };
}

export function post(base: string, path: string, body: unknown, config: Config, extra: Record<string, string> = {}): Promise<JsonReply> {
  return postJson(base, path, body, configHeaders(config, extra));
}

export const cacheStatus = (reply: { headers: Headers }) => reply.headers.get('x-gw-cache-status');

/** Chat requests the mock received (embeddings calls left out). */
export const chatCalls = (mock: MockOpenAI) => mock.requests.filter((r) => r.path.endsWith('/chat/completions')).length;

/**
 * Stands in for an output guardrail: `x-test-guard: deny` turns a 200 into a 446, `warn` into a 246
 * (same body, as a non-blocking failure answers), as the guardrail runner does after the call.
 */
export class FakeOutputGuard implements Plugin {
  static readonly manifest = { id: 'test.fake-output-guard' };

  apply(api: PluginApi): void {
    api.hooks.guardOutput.tapPromise(api.id, async (outcome, attempt) => {
      const mode = attempt.ctx.request.headers['x-test-guard'];
      if (!mode || outcome.status !== 200 || !outcome.response) return outcome;
      if (mode === 'deny') {
        const body = { error: { message: 'output guardrail denied', type: 'invalid_request_error', param: null, code: 'guardrail_denied' }, provider: 'gw', hook_results: {} };
        return { ...outcome, status: 446, response: { status: 446, headers: { 'content-type': 'application/json' }, json: JsonPayload.of(body) } };
      }
      return { ...outcome, status: 246, response: { ...outcome.response, status: 246 } };
    });
  }
}

/** Polls until `check` holds (store writes happen after the response, asynchronously). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 2000, stepMs = 10): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (performance.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
