/**
 * Google API errors: `{"error":{"code":400,"message":"...","status":"INVALID_ARGUMENT"}}`, sometimes
 * wrapped in an array (`[{"error":...}]`, the non-SSE stream form). Our envelope keeps the HTTP
 * status and the message; the canonical status name (INVALID_ARGUMENT ...) becomes `code`.
 * Vertex AI and the Gemini API answer alike; `provider` names the one that answered.
 */
import { Errors, type GatewayError } from '../../core/index.js';

interface GoogleErrorBody {
  code?: unknown;
  message?: unknown;
  status?: unknown;
}

/** The `error` object of a Google error body, or undefined when the value is not one. */
export function googleErrorOf(value: unknown): GoogleErrorBody | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (!first || typeof first !== 'object') return undefined;
  const error = (first as { error?: unknown }).error;
  if (!error || typeof error !== 'object') return undefined;
  const e = error as GoogleErrorBody;
  // Google's form has a numeric code or a canonical status name; Anthropic's has `type` instead.
  return typeof e.code === 'number' || typeof e.status === 'string' ? e : undefined;
}

export function fromGoogleError(httpStatus: number, error: GoogleErrorBody, provider: string): GatewayError {
  const message = typeof error.message === 'string' && error.message !== '' ? error.message : `provider ${provider} answered ${httpStatus}`;
  return Errors.upstream(httpStatus, message, provider, undefined, typeof error.status === 'string' ? error.status : null);
}

const decoder = new TextDecoder();

export function parseJsonBytes(body: Uint8Array): unknown {
  try {
    return JSON.parse(decoder.decode(body));
  } catch {
    return undefined;
  }
}

/** An error answer in Google's form, or a message quoting the start of whatever came instead. */
export function googleError(status: number, body: Uint8Array, provider: string): GatewayError {
  const parsed = parseJsonBytes(body);
  const error = googleErrorOf(parsed);
  if (error) return fromGoogleError(status, error, provider);
  const excerpt = decoder.decode(body).trim().slice(0, 200);
  return Errors.upstream(status, `provider ${provider} answered ${status}${excerpt ? `: ${excerpt}` : ''}`, provider);
}
