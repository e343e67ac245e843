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

/** The outcome with a new response and its status (246 when a hook failed). */
export function finalOutcome(outcome: Outcome, response: GatewayResponse, failed: boolean): Outcome {
  const status = failed ? HOOKS_FAILED_STATUS : response.status;
  return { ...outcome, status, response: { ...response, status } };
}

/** A JSON answer with `hook_results` added: the value when it changed, else the original bytes spliced. */
export function withHookResults(json: JsonPayload, results: HookResults, changed?: Record<string, unknown>): JsonPayload | undefined {
  if (changed) return JsonPayload.of({ ...changed, hook_results: results });
  // Re-serialising an unchanged answer would cost more than everything the checks do.
  const raw = json.bytes();
  const bytes = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
  const end = lastNonSpace(bytes, bytes.length - 1);
  if (bytes[firstNonSpace(bytes)] !== OPEN || end < 0 || bytes[end] !== CLOSE) return undefined;
  const empty = bytes[lastNonSpace(bytes, end - 1)] === OPEN;
  const tail = Buffer.from(`${empty ? '' : ','}"hook_results":${JSON.stringify(results)}}`, 'utf8');
  return JsonPayload.fromBytes(Buffer.concat([bytes.subarray(0, end), tail]));
}

const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }

function isSpace(b: number | undefined): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

function firstNonSpace(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length && isSpace(bytes[i])) i++;
  return i;
}

function lastNonSpace(bytes: Uint8Array, from: number): number {
  let i = from;
  while (i >= 0 && isSpace(bytes[i])) i--;
  return i;
}

/** A 2xx answer with a body: what output hooks look at (errors pass through untouched). */
export function isAnswer(outcome: Outcome): boolean {
  const response = outcome.response;
  return outcome.error === undefined && response !== undefined && outcome.status >= 200 && outcome.status < 300
    && (response.json !== undefined || response.stream !== undefined);
}
