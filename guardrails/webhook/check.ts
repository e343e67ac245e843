/**
 * `default.webhook`: POSTs what the check sees (request and, on output phases, response; metadata;
 * endpoint; provider; model; `policyId`) as JSON to the webhook and takes its answer
 * `{ "verdict": boolean, "data"?: any }`. A webhook that cannot be reached, times out, answers an
 * error status or something else than that shape fails the check when `deny` (default true) and
 * passes otherwise; either way `data.error` says what went wrong.
 */
import { defineCheck, GatewayError, type CheckInput, type Issue, type Transport } from '../../core/index.js';
import { endpointIssues, endpointOf } from './endpoint.js';
import { WebhookParams } from './params.js';

const MAX_REPLY_BYTES = 1 << 20;

export function createWebhookCheck(transport: Transport) {
  return defineCheck({
    id: 'default.webhook',
    params: WebhookParams,
    async check(input, params) {
      const { url, headers } = endpointOf(params);
      const timeout = params.timeout ?? 10000;
      const started = performance.now();
      try {
        const reply = await callWebhook(transport, url, headers, payload(input, params.policyId), input.signal, timeout);
        const data = { responseData: reply.data ?? null, durationMs: elapsed(started) };
        return reply.verdict ? { verdict: true, data } : { verdict: false, data: { ...data, explanation: 'the webhook answered verdict false' } };
      } catch (e) {
        if (input.signal.aborted) throw e;
        const deny = params.deny !== false;
        const data = { error: (e as Error).message, durationMs: elapsed(started) };
        return deny ? { verdict: false, data: { ...data, explanation: 'the webhook failed and the check fails closed' } } : { verdict: true, data };
      }
    },
    validate: (params: WebhookParams): Issue[] => endpointIssues(params),
  });
}

function payload(input: CheckInput, policyId: string | undefined): string {
  const request = input.phase === 'beforeRequest' || input.phase === 'input';
  return JSON.stringify({
    eventType: request ? 'beforeRequestHook' : 'afterRequestHook',
    phase: input.phase,
    requestType: input.endpoint,
    provider: input.provider,
    model: input.model,
    metadata: input.metadata,
    request: input.request,
    response: input.response,
    policyId,
  });
}

async function callWebhook(
  transport: Transport, url: string, headers: Record<string, string>, body: string, signal: AbortSignal, timeoutMs: number,
): Promise<{ verdict: boolean; data?: unknown }> {
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(ownDeadlineMs(timeoutMs))]);
  let reply;
  try {
    reply = await transport.send({ url, method: 'POST', headers, body }, deadline);
  } catch (e) {
    if (e instanceof GatewayError) throw e;
    throw new Error(deadline.aborted && !signal.aborted ? `no answer within ${timeoutMs} ms` : `unreachable: ${(e as Error).message}`);
  }
  if (reply.status < 200 || reply.status >= 300) {
    await reply.dump().catch(() => undefined);
    throw new Error(`answered HTTP ${reply.status}`);
  }
  const declared = Number(reply.headers['content-length']);
  if (declared > MAX_REPLY_BYTES) {
    await reply.dump().catch(() => undefined);
    throw new Error(`answer larger than ${MAX_REPLY_BYTES} bytes`);
  }
  let json: unknown;
  try {
    json = JSON.parse(await reply.text());
  } catch {
    throw new Error('answered something that is not JSON');
  }
  if (!json || typeof json !== 'object' || typeof (json as { verdict?: unknown }).verdict !== 'boolean') {
    throw new Error('answer has no boolean "verdict"');
  }
  const { verdict, data } = json as { verdict: boolean; data?: unknown };
  return { verdict, data };
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

/**
 * The check's own deadline, a little before `timeout`: the runner stops waiting at `timeout` (it
 * reads the same param), and the check must be the one that decides what a slow service means.
 */
function ownDeadlineMs(timeout: number): number {
  return Math.max(1, timeout - Math.min(100, Math.ceil(timeout / 10)));
}
