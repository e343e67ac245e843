/**
 * `lasso.classify`: sends the conversation to Lasso's classifier (`POST {apiEndpoint}/gateway/v2/classify`,
 * header `lasso-api-key`) and fails when it reports `violations_detected`. The classifier's
 * deputies and predictions are the check's data. An unreachable or failing classifier throws, so the
 * runner records an errored verdict (its `failOnError` decides).
 */
import { defineCheck, type Transport } from '../../core/index.js';
import { conversationOf } from './messages.js';
import { LASSO_BASE_URL, LassoClassifyParams } from './params.js';

interface LassoAnswer {
  violations_detected: boolean;
  deputies?: Record<string, boolean>;
  deputies_predictions?: Record<string, number>;
}

const urls = new WeakMap<LassoClassifyParams, string>();

function urlOf(params: LassoClassifyParams): string {
  let url = urls.get(params);
  if (!url) {
    url = (params.apiEndpoint ?? LASSO_BASE_URL).replace(/\/+$/, '') + '/gateway/v2/classify';
    urls.set(params, url);
  }
  return url;
}

export function createLassoCheck(transport: Transport) {
  return defineCheck({
    id: 'lasso.classify',
    params: LassoClassifyParams,
    async check(input, params) {
      const headers: Record<string, string> = { 'content-type': 'application/json', 'lasso-api-key': params.api_key };
      if (params.conversationId) headers['lasso-conversation-id'] = params.conversationId;
      if (params.userId) headers['lasso-user-id'] = params.userId;
      const timeout = params.timeout ?? 10000;
      const deadline = AbortSignal.any([input.signal, AbortSignal.timeout(ownDeadlineMs(timeout))]);
      let reply;
      try {
        reply = await transport.send({ url: urlOf(params), method: 'POST', headers, body: JSON.stringify({ messages: conversationOf(input) }) }, deadline);
      } catch (e) {
        if (input.signal.aborted) throw e;
        throw new Error(deadline.aborted ? `lasso: no answer within ${timeout} ms` : `lasso: unreachable: ${(e as Error).message}`);
      }
      if (reply.status !== 200) {
        await reply.dump().catch(() => undefined);
        throw new Error(`lasso: answered HTTP ${reply.status}`);
      }
      let answer: Partial<LassoAnswer>;
      try {
        answer = JSON.parse(await reply.text()) as Partial<LassoAnswer>;
      } catch {
        throw new Error('lasso: answered something that is not JSON');
      }
      if (typeof answer?.violations_detected !== 'boolean') throw new Error('lasso: answer has no boolean "violations_detected"');
      const data = {
        violations_detected: answer.violations_detected,
        deputies: answer.deputies ?? {},
        deputies_predictions: answer.deputies_predictions ?? {},
      };
      if (!answer.violations_detected) return { verdict: true, data };
      return { verdict: false, data: { ...data, explanation: 'the classifier detected violations' } };
    },
  });
}

/**
 * The check's own deadline, a little before `timeout`: the runner stops waiting at `timeout` (it
 * reads the same param), and the check must be the one that decides what a slow service means.
 */
function ownDeadlineMs(timeout: number): number {
  return Math.max(1, timeout - Math.min(100, Math.ceil(timeout / 10)));
}
