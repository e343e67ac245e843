/**
 * What the client gets: 446 with the envelope and `hook_results` when a hook with `deny` failed;
 * otherwise the answer, with status 246 when a hook failed and `hook_results` added to a JSON body.
 * Answers are never changed in place (a cached answer may be shared): new objects are built.
 */
import {
  GatewayError, guardrailDenied, JsonPayload,
  type GatewayResponse, type HookResult, type HookResults, type Outcome,
} from '../../core/index.js';

/** A guardrail status for an answer whose hooks failed without deny. */
export const HOOKS_FAILED_STATUS = 246;

export function hookResultsOf(before: HookResult[], after: HookResult[]): HookResults {
  return { before_request_hooks: before, after_request_hooks: after };
}

export function deniedOutcome(ids: readonly string[], results: HookResults, stage: 'request' | 'answer', from?: Outcome): Outcome {
  const error = guardrailDenied(ids, results, stage);
  return errorOutcome(error, from);
}

export function errorOutcome(error: GatewayError, from?: Outcome): Outcome {
  const response: GatewayResponse = {
    status: error.status,
    headers: { 'content-type': 'application/json' },
    json: JsonPayload.of(error.toEnvelope()),
  };
  const outcome: Outcome = { status: error.status, error, response, retries: from?.retries ?? 0 };
  if (from?.provider) outcome.provider = from.provider;
  if (from?.target) outcome.target = from.target;
  return outcome;
}

/** The outcome with a new response: status (246 on failure) and, for a JSON answer, `hook_results`. */
export function finalOutcome(outcome: Outcome, response: GatewayResponse, failed: boolean, json?: Record<string, unknown>, results?: HookResults): Outcome {
  const status = failed ? HOOKS_FAILED_STATUS : response.status;
  const next: GatewayResponse = { ...response, status };
  if (json) next.json = JsonPayload.of(results ? { ...json, hook_results: results } : json);
  return { ...outcome, status, response: next };
}

/** A 2xx answer with a body: what output hooks look at (errors pass through untouched). */
export function isAnswer(outcome: Outcome): boolean {
  const response = outcome.response;
  return outcome.error === undefined && response !== undefined && outcome.status >= 200 && outcome.status < 300
    && (response.json !== undefined || response.stream !== undefined);
}
