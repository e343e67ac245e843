/**
 * `default.moderation`: sends the phase's text to a provider's moderation endpoint through that
 * provider's adapter and the shared transport (so keep-alive pools and the adapter's auth are
 * reused), then fails when a selected category is flagged or reaches its threshold. A provider
 * that fails or cannot be reached throws: the runner records an errored verdict.
 */
import {
  defineCheck, JsonPayload,
  type AdapterInput, type Attempt, type EndpointDef, type Issue, type RequestContext, type Registries, type Target, type Transport,
} from '../../core/index.js';
import { ModerationParams } from './params.js';
import { failingCategories, type ModerationResult } from './verdict.js';

/** Used when no inference-endpoints plugin registered `moderate` (the adapter only needs its id). */
const MODERATE: EndpointDef = { id: 'moderate', validate: () => [], streamable: false };

export function createModerationCheck(registries: Registries, transport: Transport) {
  return defineCheck({
    id: 'default.moderation',
    params: ModerationParams,
    async check(input, params, ctx) {
      const text = input.response ? input.response.text : input.request.text;
      if (text.length === 0) return { verdict: true, data: null };
      const adapter = registries.providers.get(params.provider)?.endpoints['moderate'];
      if (!adapter) throw new Error(`moderation: provider "${params.provider}" has no moderation endpoint`);
      const timeout = params.timeout ?? 10000;
      const signal = AbortSignal.any([input.signal, AbortSignal.timeout(ownDeadlineMs(timeout))]);
      const endpoint = registries.endpoints.get('moderate') ?? MODERATE;
      const target = targetFor(params, ctx);
      const body: Record<string, unknown> = params.model ? { input: text, model: params.model } : { input: text };
      const attempt: Attempt = { ctx, endpoint, target, body, headers: {}, stream: false, signal, retry: 0 };
      const adapterInput: AdapterInput = { attempt, target, endpoint, body, stream: false };

      let reply;
      try {
        reply = await transport.send(await adapter.request(adapterInput), signal);
      } catch (e) {
        if (input.signal.aborted) throw e;
        throw new Error(signal.aborted ? `moderation: no answer within ${timeout} ms` : `moderation: provider unreachable: ${(e as Error).message}`);
      }
      if (reply.status >= 400) {
        await reply.dump().catch(() => undefined);
        throw new Error(`moderation: provider ${params.provider} answered HTTP ${reply.status}`);
      }
      let payload = JsonPayload.fromBytes(await reply.bytes());
      if (adapter.response) payload = adapter.response(payload, adapterInput);
      const result = (payload.value as { results?: ModerationResult[] }).results?.[0];
      if (!result) throw new Error(`moderation: provider ${params.provider} answered without results`);

      const failing = failingCategories(result, params);
      const data = { flagged: result.flagged === true, failingCategories: failing, scores: result.category_scores ?? {} };
      if (failing.length === 0) return { verdict: true, data };
      return { verdict: false, data: { ...data, explanation: `flagged: ${failing.join(', ')}` } };
    },
    validate(params: ModerationParams): Issue[] {
      const adapter = registries.providers.get(params.provider);
      if (!adapter) return [{ path: 'provider', rule: `unknown provider "${params.provider}" (loaded: ${registries.providers.keys().join(', ')})` }];
      if (!adapter.endpoints['moderate']) return [{ path: 'provider', rule: `provider "${params.provider}" has no moderation endpoint` }];
      return [];
    },
  });
}

/** The provider target: the params' credentials, else the route config's own for the same provider. */
function targetFor(params: ModerationParams, ctx: RequestContext): Target {
  const config = ctx.config;
  const sameProvider = config?.provider === params.provider;
  const target: Record<string, unknown> = { provider: params.provider };
  const apiKey = params.api_key ?? (sameProvider ? config?.api_key : undefined);
  const customHost = params.custom_host ?? (sameProvider ? config?.custom_host : undefined);
  if (apiKey !== undefined) target['api_key'] = apiKey;
  if (customHost !== undefined) target['custom_host'] = customHost;
  Object.defineProperty(target, '$path', { value: 'guardrail:default.moderation', enumerable: false });
  return target as unknown as Target;
}

/**
 * The check's own deadline, a little before `timeout`: the runner stops waiting at `timeout` (it
 * reads the same param), and the check must be the one that decides what a slow service means.
 */
function ownDeadlineMs(timeout: number): number {
  return Math.max(1, timeout - Math.min(100, Math.ceil(timeout / 10)));
}
