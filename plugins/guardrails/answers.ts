/**
 * What the client gets: 446 with the envelope and `hook_results` when a hook with `deny` failed;
 * otherwise the answer, with status 246 when a hook failed and `hook_results` added to a JSON body.
 * Answers are never changed in place (a cached answer may be shared): new objects are built.
 */
import {
  GatewayError, guardrailDenied, hookResultsJson, JsonPayload,
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

/** The outcome with a new response and its status (246 when a hook failed). */
export function finalOutcome(outcome: Outcome, response: GatewayResponse, failed: boolean): Outcome {
  const status = failed ? HOOKS_FAILED_STATUS : response.status;
  return { ...outcome, status, response: { ...response, status } };
}

/** A JSON answer with `hook_results` added: the value when it changed, else the original text spliced. */
export function withHookResults(json: JsonPayload, results: HookResults, changed?: Record<string, unknown>): JsonPayload | undefined {
  if (changed) return JsonPayload.of({ ...changed, hook_results: results });
  // Re-serialising an unchanged answer would cost more than everything the checks do; its text was
  // decoded once already, when the output checks parsed it.
  const text = json.text();
  const end = text.lastIndexOf('}');
  if (end < 0 || text.charCodeAt(firstNonSpace(text, 0)) !== OPEN || firstNonSpace(text, end + 1) !== text.length) return undefined;
  const empty = text.charCodeAt(lastNonSpace(text, end - 1)) === OPEN;
  return JsonPayload.fromBytes(`${text.slice(0, end)}${empty ? '' : ','}"hook_results":${hookResultsJson(results)}}`);
}

const OPEN = 0x7b; // {

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function firstNonSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

function lastNonSpace(text: string, from: number): number {
  let i = from;
  while (i >= 0 && isSpace(text.charCodeAt(i))) i--;
  return i;
}

/** A 2xx answer with a body: what output hooks look at (errors pass through untouched). */
export function isAnswer(outcome: Outcome): boolean {
  const response = outcome.response;
  return outcome.error === undefined && response !== undefined && outcome.status >= 200 && outcome.status < 300
    && (response.json !== undefined || response.stream !== undefined);
}
