/**
 * Anthropic errors → gateway errors. The API answers `{type: "error", error: {type, message},
 * request_id}`; the envelope keeps the provider's status, message and error type.
 */
import { Errors, type GatewayError } from '../../core/index.js';
import { ERROR_STATUS } from './wire.js';

const decoder = new TextDecoder();

/** An error answer (status >= 400) of the Messages API. */
export function fromErrorBody(status: number, body: Uint8Array, provider: string): GatewayError {
  const text = decoder.decode(body);
  const error = readError(text);
  if (error) return Errors.upstream(status, error.message, provider, error.type);
  const excerpt = text.trim().slice(0, 200);
  return Errors.upstream(status, `provider ${provider} answered ${status}${excerpt ? `: ${excerpt}` : ''}`, provider);
}

/** An `error` event in a stream: its status is the one the API gives that error type. */
export function fromErrorEvent(error: { type?: unknown; message?: unknown } | undefined, provider: string): GatewayError {
  const type = typeof error?.type === 'string' ? error.type : 'api_error';
  const message = typeof error?.message === 'string' ? error.message : `provider ${provider} reported ${type}`;
  return Errors.upstream(ERROR_STATUS[type] ?? 500, message, provider, type);
}

function readError(text: string): { type?: string; message: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const error = (parsed as { error?: { type?: unknown; message?: unknown } } | null)?.error;
  if (!error || typeof error !== 'object' || typeof error.message !== 'string') return undefined;
  return { type: typeof error.type === 'string' ? error.type : undefined, message: error.message };
}
