/**
 * The error catalogue: every error the gateway answers with is made here, so status codes,
 * types and codes stay consistent and every body has the OpenAI error envelope (INTERFACE.md).
 */

export interface ErrorEnvelope {
  error: { message: string; type: string; param: string | null; code: string | null };
  provider: string;
  [extra: string]: unknown;
}

export interface GatewayErrorInit {
  status: number;
  message: string;
  type?: string;
  code?: string | null;
  param?: string | null;
  provider?: string;
  headers?: Record<string, string>;
  /** Extra top-level fields of the envelope (e.g. `hook_results`). */
  extra?: Record<string, unknown>;
  /** False when trying the same target again cannot change the answer (a policy refusal). */
  retryable?: boolean;
}

export class GatewayError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string | null;
  readonly param: string | null;
  readonly provider: string;
  readonly headers: Record<string, string>;
  readonly extra: Record<string, unknown> | undefined;
  readonly retryable: boolean | undefined;

  constructor(init: GatewayErrorInit) {
    super(typeof init?.message === 'string' && init.message !== '' ? init.message : 'internal gateway error');
    this.name = 'GatewayError';
    // Plugins in plain JavaScript may pass anything: a status node cannot write becomes a 500.
    this.status = Number.isInteger(init?.status) && init.status >= 100 && init.status <= 599 ? init.status : 500;
    this.type = init?.type ?? typeForStatus(this.status);
    this.code = init?.code ?? null;
    this.param = init?.param ?? null;
    this.provider = init?.provider ?? 'gw';
    this.headers = init?.headers ?? {};
    this.extra = init?.extra;
    this.retryable = init?.retryable;
  }

  toEnvelope(): ErrorEnvelope {
    return {
      error: { message: this.message, type: this.type, param: this.param, code: this.code },
      provider: this.provider,
      ...this.extra,
    };
  }
}

function typeForStatus(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 408) return 'timeout_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

/** One place for every error the gateway itself raises. */
export const Errors = {
  invalidConfig: (param: string, rule: string) =>
    new GatewayError({ status: 400, message: `config${param ? '.' + param : ''}: ${rule}`, param: param || null, code: 'invalid_config' }),
  invalidBody: (param: string, rule: string) =>
    new GatewayError({ status: 400, message: `body${param ? '.' + param : ''}: ${rule}`, param: param || null, code: 'invalid_body' }),
  invalidHeader: (header: string, rule: string) =>
    new GatewayError({ status: 400, message: `header ${header}: ${rule}`, param: header, code: 'invalid_header' }),
  invalidRequest: (message: string, param: string | null = null, code = 'invalid_request') =>
    new GatewayError({ status: 400, message, param, code }),
  unauthorized: (message = 'missing or invalid x-gw-api-key') =>
    new GatewayError({ status: 401, message, code: 'invalid_api_key' }),
  forbidden: (message: string) => new GatewayError({ status: 403, message, code: 'forbidden' }),
  /** The outbound host policy refused a host before any connection was opened. */
  outboundHostDenied: (message: string) =>
    new GatewayError({ status: 403, message, code: 'outbound_host_denied', retryable: false }),
  notFound: (message: string, code = 'not_found') => new GatewayError({ status: 404, message, code }),
  routeNotFound: (method: string, path: string) =>
    new GatewayError({ status: 404, message: `no route for ${method} ${path}`, code: 'route_not_found' }),
  methodNotAllowed: (method: string, path: string, allowed: string[]) =>
    new GatewayError({
      status: 405, message: `${method} is not allowed on ${path}`, code: 'method_not_allowed',
      headers: { allow: allowed.join(', ') },
    }),
  timeout: (ms: number, provider?: string) =>
    new GatewayError({ status: 408, message: `request_timeout of ${ms} ms passed before the provider answered`, code: 'request_timeout', provider }),
  /** The request line and headers did not all arrive in time (the connection is closed). */
  headersTimeout: (ms: number) =>
    new GatewayError({ status: 408, message: `request headers were not complete within ${ms} ms`, code: 'headers_timeout' }),
  /** The body did not all arrive in time (the connection is closed). */
  bodyTimeout: (ms: number) =>
    new GatewayError({ status: 408, message: `body: the whole request did not arrive within ${ms} ms`, param: 'body', code: 'body_timeout' }),
  headersTooLarge: (limit: number) =>
    new GatewayError({
      status: 431, code: 'headers_too_large',
      message: `request line and headers exceed ${limit} bytes; send a large config as a stored config (POST /v1/configs) and pass its id in x-gw-config`,
    }),
  /** The bytes are not a well-formed HTTP/1.1 request; `rule` says which rule they break. */
  malformedRequest: (rule: string, param: string | null = null) =>
    new GatewayError({ status: 400, message: `malformed HTTP request: ${rule}`, param, code: 'malformed_request' }),
  payloadTooLarge: (limit: number) =>
    new GatewayError({ status: 413, message: `body exceeds the limit of ${limit} bytes`, code: 'payload_too_large' }),
  unsupportedMediaType: (expected: string) =>
    new GatewayError({ status: 415, message: `content-type must be ${expected}`, code: 'unsupported_media_type' }),
  rateLimited: (message: string, retryAfterSeconds: number, headers: Record<string, string> = {}) =>
    new GatewayError({ status: 429, message, code: 'rate_limited', headers: { 'retry-after': String(retryAfterSeconds), ...headers } }),
  unsupportedEndpoint: (provider: string, endpoint: string) =>
    new GatewayError({ status: 400, message: `provider ${provider} does not support ${endpoint}`, code: 'unsupported_endpoint', provider }),
  unknownProvider: (provider: string, param = 'provider') =>
    new GatewayError({ status: 400, message: `config.${param}: unknown provider "${provider}"`, param, code: 'unknown_provider' }),
  badGateway: (message: string, provider?: string) =>
    new GatewayError({ status: 502, message, code: 'bad_gateway', provider }),
  /** One target skipped because its circuit is open. */
  circuitOpen: (targetPath: string, retryAfterSeconds: number) =>
    new GatewayError({
      status: 503, message: `circuit open for target ${targetPath}`, code: 'circuit_open',
      headers: { 'retry-after': String(retryAfterSeconds) },
    }),
  allCircuitsOpen: () =>
    new GatewayError({ status: 503, message: 'every target\'s circuit is open', code: 'circuit_open' }),
  unavailable: (message: string) => new GatewayError({ status: 503, message, code: 'unavailable' }),
  /** The record store cannot be reached (or is out of connections); `kind` names it, never its address. */
  storeUnavailable: (kind: string, reason: string) =>
    new GatewayError({
      status: 503, code: 'store_unavailable', headers: { 'retry-after': '1' },
      message: `the record store (${kind}) is unavailable: ${reason}; try again shortly`,
    }),
  /** The client went away before the answer; nobody reads this, but logs and observers do. */
  clientClosed: () => new GatewayError({ status: 499, message: 'client closed the request', code: 'client_closed' }),
  /** The operator must fix something (a secret key that does not open stored credentials ...). */
  misconfigured: (message: string, code = 'gateway_misconfigured') => new GatewayError({ status: 500, message, code, type: 'api_error' }),
  /** The request needs a plugin this gateway was composed without; `message` names it. */
  pluginNotLoaded: (message: string) => new GatewayError({ status: 500, message, code: 'plugin_not_loaded', type: 'api_error' }),
  internal: () => new GatewayError({ status: 500, message: 'internal gateway error', code: 'internal_error' }),
  /** A provider's own error, passed on with its status once retries and fallbacks are spent. */
  upstream: (status: number, message: string, provider: string, type?: string, code?: string | null, param?: string | null) =>
    new GatewayError({ status, message, provider, type: type ?? typeForStatus(status), code: code ?? null, param: param ?? null }),
} as const;

export function isGatewayError(e: unknown): e is GatewayError {
  return e instanceof GatewayError;
}
