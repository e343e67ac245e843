/**
 * What the client gets: 446 with the envelope and `hook_results` when a hook with `deny` failed;
 * otherwise the answer, with status 246 when a hook failed and `hook_results` added to a JSON body.
 * Answers are never changed in place (a cached answer may be shared): new objects are built.
 */
import {
  asBuffer, GatewayError, guardrailDenied, JsonPayload, type GatewayResponse, type HookResult, type HookResults,
  type Outcome,
} from '../../../core/index.js';
import { ByteSlab } from './byte-slab.js';

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

/** The outcome with a new response and its status (246 when a hook failed), and its new JSON body if given. */
export function finalOutcome(outcome: Outcome, response: GatewayResponse, failed: boolean, json?: JsonPayload): Outcome {
  const status = failed ? HOOKS_FAILED_STATUS : response.status;
  return { ...outcome, status, response: json ? { ...response, status, json } : { ...response, status } };
}

/** Guarded answers are written and dropped: their bodies come from a slab, not one allocation each. */
const bodies = new ByteSlab();

/** A JSON answer with `hook_results` added: the value when it changed, else the original body spliced. */
export function withHookResults(json: JsonPayload, results: HookResults, changed?: Record<string, unknown>): JsonPayload | undefined {
  if (changed) return JsonPayload.of({ ...changed, hook_results: results });
  // Re-serialising an unchanged answer would cost more than everything the checks do. Bytes stay
  // bytes: the provider's part is copied as it is and only the added text is encoded, so the host
  // writes the body as it stands (a string would be flattened, measured and encoded again there).
  const raw = json.bytes();
  if (typeof raw === 'string') {
    const at = splicePoint(raw.length, (i) => raw.charCodeAt(i));
    return at && JsonPayload.fromBytes(raw.slice(0, at.end) + addedText(results, at.empty));
  }
  const bytes = asBuffer(raw);
  const at = splicePoint(bytes.length, (i) => bytes[i]!);
  if (!at) return undefined;
  const added = addedText(results, at.empty);
  const body = bodies.alloc(at.end + Buffer.byteLength(added));
  bytes.copy(body, 0, 0, at.end);
  body.write(added, at.end);
  return JsonPayload.fromBytes(body);
}

function addedText(results: HookResults, empty: boolean): string {
  return `${empty ? '' : ','}"hook_results":${JSON.stringify(results)}}`;
}

const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }

/**
 * Where `hook_results` goes in a body that is one JSON object: the index of its closing brace, and
 * whether the object is empty. Undefined for anything else (an array, a string). Every character
 * looked at is ASCII, so string char codes and UTF-8 bytes read alike.
 */
function splicePoint(length: number, code: (i: number) => number): { end: number; empty: boolean } | undefined {
  let end = length - 1;
  while (end >= 0 && isSpace(code(end))) end--;
  let start = 0;
  while (start < length && isSpace(code(start))) start++;
  if (end <= start || code(end) !== CLOSE || code(start) !== OPEN) return undefined;
  let before = end - 1;
  while (before > start && isSpace(code(before))) before--;
  return { end, empty: before === start };
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** A 2xx answer with a body: what output hooks look at (errors pass through untouched). */
export function isAnswer(outcome: Outcome): boolean {
  const response = outcome.response;
  return outcome.error === undefined && response !== undefined && outcome.status >= 200 && outcome.status < 300
    && (response.json !== undefined || response.stream !== undefined);
}
