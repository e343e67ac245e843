/**
 * route.upstream: the provider call. Finds the target's adapter, lets it build the upstream request,
 * sends it through the shared transport and turns the answer into an outcome:
 *   - a success: the adapter's unified JSON, or its SSE stream passed through chunk by chunk
 *     (the first chunk is awaited so a stream that dies before its first byte fails as a whole);
 *   - a provider error: our envelope with the provider's status and message, `provider` set;
 *   - no answer (refused, reset, not the provider's protocol): 502.
 * Provider credentials are checked when the config is validated.
 */
import {
  attemptAbort, Errors, GatewayError, guardSseStream, HostRules, Type, JsonPayload, prefetchFirst, providerErrorFromBody, SSE_HEADERS, Stage, StreamCutError, Services,
  type AdapterInput, type Attempt, type EndpointAdapter, type EndpointBridge, type Outcome, type Plugin, type PluginApi,
  type ProviderAdapter, type Static, type Transport, type UpstreamRequest,
} from '../../../core/index.js';
import { copyResponseHeaders } from './answers.js';
import { customHostProblem } from './custom-host.js';
import { describeNetworkError } from './network-errors.js';
import { streamFailure } from './stream-failures.js';

const Options = Type.Object({
  /**
   * Host names, `*.domain` wildcards and CIDR ranges a config's `custom_host` must match (an empty
   * list forbids custom_host). Unset: any host, within the outbound host policy.
   */
  customHostAllow: Type.Optional(Type.Array(Type.String())),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

export default class UpstreamPlugin implements Plugin<Options> {
  static readonly manifest = { id: 'route.upstream', description: 'Provider calls through the shared transport', options: Options };

  apply(api: PluginApi<Options>): void {
    const transport = api.services.get(Services.Transport);
    const { providers } = api.registries;
    const allowedHosts = api.options.customHostAllow && HostRules.parse(api.options.customHostAllow, `${api.id} option customHostAllow`);

    api.hooks.validateConfig.tap(api.id, (node, path, issues, effective) => {
      // Every node that names a custom_host, once (its children inherit it as written here).
      if (allowedHosts && typeof node.custom_host === 'string') {
        const problem = customHostProblem(node.custom_host, allowedHosts);
        if (problem) issues.push({ path: path ? `${path}.custom_host` : 'custom_host', rule: problem });
      }
      // Leaves are checked with their inherited settings: a child may take its credentials from its parent.
      const provider = effective.provider;
      if (node.targets?.length || typeof provider !== 'string' || provider.startsWith('@')) return;
      const adapter = providers.get(provider);
      if (!adapter) {
        issues.push({ path: path ? `${path}.provider` : 'provider', rule: `unknown provider "${provider}" (loaded: ${providers.keys().join(', ')})` });
        return;
      }
      issues.push(...(adapter.validateTarget?.(effective, path) ?? []));
    });

    api.hooks.call.tapPromise({ name: api.id, stage: Stage.PROVIDER }, async (attempt) => {
      const providerId = attempt.target.provider;
      if (typeof providerId !== 'string') return undefined;
      const adapter = providers.get(providerId);
      if (!adapter) return undefined;
      return callProvider(transport, adapter, attempt);
    });
  }
}

export async function callProvider(transport: Transport, adapter: ProviderAdapter, attempt: Attempt): Promise<Outcome> {
  const provider = adapter.id;
  const endpoint = attempt.endpoint;
  let endpointAdapter: EndpointAdapter | undefined = adapter.endpoints[endpoint.id];
  if (endpointAdapter?.accepts && endpoint.bridge && !endpointAdapter.accepts(attempt.body)) endpointAdapter = undefined;
  // A provider without this endpoint (for this body) may still serve it through the endpoint it bridges
  // to; not a passthrough target, whose body goes untouched (no translation).
  const bridge = endpointAdapter || attempt.target.passthrough === true ? undefined : endpoint.bridge;
  if (bridge) endpointAdapter = adapter.endpoints[bridge.via.id];
  if (!endpointAdapter) return failure(Errors.unsupportedEndpoint(provider, endpoint.id), provider);
  // The client's request itself when nothing gave the attempt a signal: no AbortSignal is made.
  const abort = attemptAbort(attempt);
  let input: AdapterInput;
  let request: UpstreamRequest;
  try {
    input = bridge
      ? { attempt, target: attempt.target, endpoint: bridge.via, body: bridge.request(attempt, adapter), stream: attempt.stream }
      : { attempt, target: attempt.target, endpoint, body: attempt.body, stream: attempt.stream };
    request = await endpointAdapter.request(input);
  } catch (e) {
    // An adapter refusing a request (bad image URL, failed token exchange) answers for its provider.
    if (abort.aborted) throw abort.reason ?? e;
    if (e instanceof GatewayError) return failure(e, provider);
    throw e;
  }
  for (const name in attempt.headers) request.headers[name] ??= attempt.headers[name]!;

  let reply;
  try {
    reply = await transport.send(request, abort);
  } catch (e) {
    if (abort.aborted) throw abort.reason ?? e;
    // The transport's own refusals (the outbound host policy) keep their status and message.
    if (e instanceof GatewayError) return failure(e, provider);
    return failure(Errors.badGateway(`provider ${provider} is unreachable: ${describeNetworkError(e)}`, provider), provider);
  }

  const upstreamHeaders = reply.headers;
  if (reply.status >= 400) {
    const body = await readBody(reply, provider, attempt);
    const error = endpointAdapter.error?.(reply.status, body, input, upstreamHeaders) ?? providerErrorFromBody(reply.status, body, provider);
    return { ...failure(error, provider), upstreamHeaders, response: errorAnswer(error, upstreamHeaders) };
  }

  const contentType = upstreamHeaders['content-type'] ?? '';
  if (attempt.stream) {
    if (!contentType.includes(endpointAdapter.streamContentType ?? 'text/event-stream')) {
      await reply.dump().catch(() => undefined);
      return failure(Errors.badGateway(`provider ${provider} answered a stream request with ${contentType || 'no content-type'}`, provider), provider);
    }
    return streamAnswer(endpointAdapter, input, reply.body, reply.status, upstreamHeaders, provider, bridge);
  }
  if (!contentType.includes('json') && endpoint.rawAnswer) {
    // Audio, text transcripts, or an event stream the body asked for (speech's stream_format).
    if (contentType.includes('text/event-stream')) return streamAnswer(endpointAdapter, input, reply.body, reply.status, upstreamHeaders, provider);
    return rawAnswer(reply.body, reply.status, contentType, upstreamHeaders, provider, attempt);
  }
  if (!contentType.includes('json')) {
    await reply.dump().catch(() => undefined);
    return failure(Errors.badGateway(`provider ${provider} answered with ${contentType || 'no content-type'}, not JSON`, provider), provider);
  }
  const bytes = await readBody(reply, provider, attempt);
  let json = JsonPayload.fromBytes(bytes);
  if (endpointAdapter.response) {
    try {
      json = endpointAdapter.response(json, input);
    } catch (e) {
      return failure(Errors.badGateway(`provider ${provider} answered with a body it does not document: ${(e as Error).message}`, provider), provider);
    }
  }
  if (bridge) {
    try {
      json = bridge.response(json, attempt);
    } catch (e) {
      return failure(Errors.badGateway(`provider ${provider} answered with a body it does not document: ${(e as Error).message}`, provider), provider);
    }
  }
  return {
    status: reply.status,
    provider,
    retries: 0,
    upstreamHeaders,
    response: { status: reply.status, headers: copyResponseHeaders(upstreamHeaders, 'application/json'), json },
  };
}

async function streamAnswer(
  adapter: EndpointAdapter, input: AdapterInput, body: AsyncIterable<Uint8Array>, status: number,
  upstreamHeaders: Record<string, string>, provider: string, bridge?: EndpointBridge,
): Promise<Outcome> {
  const own = adapter.stream ? adapter.stream(body, input) : body;
  const unified = bridge ? bridge.stream(own, input.attempt) : own;
  let started: AsyncIterable<Uint8Array>;
  try {
    started = await prefetchFirst(unified);
  } catch (e) {
    throwIfAborted(input.attempt, e);
    const error = e instanceof GatewayError || e instanceof StreamCutError
      ? streamFailure(e, provider)
      : Errors.badGateway(`provider ${provider} stream failed before its first byte: ${describeNetworkError(e)}`, provider);
    return failure(error, provider);
  }
  const ctx = input.attempt.ctx;
  const guard = input.attempt.endpoint.guardStream ?? guardSseStream;
  const stream = guard(started, (e) => {
    // The head (a 200) is out: observers learn of the failure from the context.
    const error = streamFailure(e, provider);
    ctx.streamError = error;
    return error.toEnvelope();
  });
  return {
    status,
    provider,
    retries: 0,
    upstreamHeaders,
    response: { status, headers: copyResponseHeaders(upstreamHeaders, SSE_HEADERS['content-type']!, SSE_HEADERS), stream },
  };
}

/**
 * A binary (or plain text) answer streamed through as it comes: the first chunk is awaited so that a
 * provider failing before it still falls back; a failure after it cuts the connection (no event
 * can be written into audio bytes), and observers learn of it from the context.
 */
async function rawAnswer(
  body: AsyncIterable<Uint8Array>, status: number, contentType: string, upstreamHeaders: Record<string, string>,
  provider: string, attempt: Attempt,
): Promise<Outcome> {
  let started: AsyncIterable<Uint8Array>;
  try {
    started = await prefetchFirst(body);
  } catch (e) {
    throwIfAborted(attempt, e);
    return failure(streamFailure(e, provider), provider);
  }
  const ctx = attempt.ctx;
  async function* watched(): AsyncGenerator<Uint8Array> {
    try {
      yield* started;
    } catch (e) {
      ctx.streamError = streamFailure(e, provider);
      throw e;
    }
  }
  return {
    status,
    provider,
    retries: 0,
    upstreamHeaders,
    response: { status, headers: copyResponseHeaders(upstreamHeaders, contentType), stream: watched() },
  };
}

/** A `catch` on the read, not an async wrapper around it: one promise per answer fewer. */
function readBody(reply: { bytes(): Promise<Uint8Array> }, provider: string, attempt: Attempt): Promise<Uint8Array> {
  return reply.bytes().catch((e: unknown) => {
    throwIfAborted(attempt, e);
    throw Errors.badGateway(`provider ${provider} connection failed mid-answer: ${describeNetworkError(e)}`, provider);
  });
}

/** A failure caused by the abort (the client left, a time-out) is reported as the abort's reason. */
function throwIfAborted(attempt: Attempt, e: unknown): void {
  const abort = attemptAbort(attempt);
  if (abort.aborted) throw abort.reason ?? e;
}

function failure(error: GatewayError, provider: string): Outcome {
  return { status: error.status, error, provider, retries: 0 };
}

function errorAnswer(error: GatewayError, upstreamHeaders: Record<string, string>) {
  return {
    status: error.status,
    headers: copyResponseHeaders(upstreamHeaders, 'application/json'),
    json: JsonPayload.of(error.toEnvelope()),
  };
}
