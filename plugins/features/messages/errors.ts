/**
 * Errors in Anthropic's shape, `{type: "error", error: {type, message}}`, on the Messages routes,
 * because the Anthropic SDKs parse that (the gateway's own fields — provider, hook_results, the
 * envelope's param and code — stay beside it, so nothing the gateway says is lost). The error type
 * is the provider's own when it is one of Anthropic's, else the one Anthropic uses for the status.
 */
import { JsonPayload, type GatewayResponse } from '../../../core/index.js';
import { ERROR_STATUS } from '../../../providers/anthropic/contract.js';

type Obj = Record<string, unknown>;

const TYPE_FOR_STATUS: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  446: 'invalid_request_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

export function anthropicErrorType(status: number, type: unknown): string {
  if (typeof type === 'string' && Object.hasOwn(ERROR_STATUS, type)) return type;
  return TYPE_FOR_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/** The gateway envelope `{error: {message, type, param, code}, provider, ...}` in Anthropic's shape. */
export function fromEnvelope(envelope: unknown, status: number): Obj | undefined {
  const e = envelope as { error?: Obj } | null;
  const error = e?.error;
  if (!error || typeof error !== 'object' || typeof error['message'] !== 'string') return undefined;
  const out: Obj = { type: 'error' };
  for (const key in e) if (key !== 'error') out[key] = (e as Obj)[key];
  const inner: Obj = { type: anthropicErrorType(status, error['type']), message: error['message'] };
  if (error['param'] != null) inner['param'] = error['param'];
  if (error['code'] != null) inner['code'] = error['code'];
  out['error'] = inner;
  return out;
}

/** An error answer of the gateway rewritten in Anthropic's shape; every other answer unchanged. */
export function asAnthropicError(response: GatewayResponse): GatewayResponse {
  if (response.status < 400 || !response.json) return response;
  const shaped = fromEnvelope(response.json.tryValue(), response.status);
  if (!shaped) return response;
  return { ...response, json: JsonPayload.of(shaped) };
}
