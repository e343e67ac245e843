/**
 * Bedrock errors in our envelope. An HTTP error is `{"message": ...}` with its type in the
 * `x-amzn-errortype` header (`ValidationException:http://internal.amazon.com/...`); a stream
 * error is an event-stream frame of message type `exception` named by `:exception-type`.
 */
import { Errors, type GatewayError } from '../../core/index.js';
import { PROVIDER_ID } from './target.js';

/** HTTP status of each Bedrock error type, for stream exceptions and answers without the type header. */
const STATUS_BY_TYPE: Readonly<Record<string, number>> = {
  ValidationException: 400,
  AccessDeniedException: 403,
  ResourceNotFoundException: 404,
  ModelTimeoutException: 408,
  ModelErrorException: 424,
  ModelStreamErrorException: 424,
  ThrottlingException: 429,
  ModelNotReadyException: 429,
  ServiceQuotaExceededException: 400,
  InternalServerException: 500,
  ServiceUnavailableException: 503,
};

/** The type a status stands for when the answer does not name one. */
const TYPE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};

/** `ValidationException:http://...` or `com.amazonaws.bedrockruntime#ValidationException` → `ValidationException`. */
export function sanitizeErrorType(raw: string): string {
  let type = raw.trim();
  const colon = type.indexOf(':');
  if (colon >= 0) type = type.slice(0, colon);
  const hash = type.indexOf('#');
  if (hash >= 0) type = type.slice(hash + 1);
  return type;
}

const decoder = new TextDecoder();

/** An HTTP error answer. `headers` carries `x-amzn-errortype` when the host passes it on. */
export function bedrockHttpError(status: number, body: Uint8Array, headers?: Readonly<Record<string, string | undefined>>): GatewayError {
  const text = decoder.decode(body);
  let parsed: Record<string, unknown> | undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) parsed = value as Record<string, unknown>;
  } catch {
    /* not JSON: quoted below */
  }
  const headerType = headers?.['x-amzn-errortype'];
  const bodyType = parsed?.['__type'] ?? parsed?.['code'];
  const type = headerType ? sanitizeErrorType(headerType)
    : typeof bodyType === 'string' ? sanitizeErrorType(bodyType)
      : TYPE_BY_STATUS[status];
  const message = parsed?.['message'] ?? parsed?.['Message'];
  const excerpt = text.trim().slice(0, 200);
  return Errors.upstream(
    status,
    typeof message === 'string' && message !== '' ? message : `provider ${PROVIDER_ID} answered ${status}${excerpt ? `: ${excerpt}` : ''}`,
    PROVIDER_ID,
    type,
  );
}

/** An `exception` frame of a stream: `:exception-type` is camel-case (`throttlingException`). */
export function bedrockStreamException(exceptionType: string, payload: unknown): GatewayError {
  const type = exceptionType.charAt(0).toUpperCase() + exceptionType.slice(1);
  const body = payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
  const message = typeof body['message'] === 'string' ? body['message'] : `provider ${PROVIDER_ID} stream failed with ${type}`;
  return Errors.upstream(STATUS_BY_TYPE[type] ?? 500, message, PROVIDER_ID, type);
}

/** An `error` frame (`:error-code`, `:error-message` headers): not modelled by Bedrock, so a 502. */
export function bedrockStreamError(code: string, message: string): GatewayError {
  return Errors.upstream(STATUS_BY_TYPE[code] ?? 502, message || `provider ${PROVIDER_ID} stream failed with ${code}`, PROVIDER_ID, code || undefined);
}
