/**
 * The shapes that flow through the lifecycle. No node:http types: a host converts to and from these.
 */
import type { GatewayError } from './errors.js';
import type { JsonPayload } from './payload.js';
import type { ConfigNode } from './config/types.js';
import type { Issue } from './schema.js';
import type { RequestValues } from './request-values.js';
import type { AbortSource } from './abort-source.js';

/** Header names are lower-case; repeated headers are joined with ", ". */
export type HeaderMap = Record<string, string | undefined>;

export interface GatewayRequest {
  method: string;
  /** URL path without the query, e.g. `/v1/chat/completions`. */
  path: string;
  query: URLSearchParams;
  headers: HeaderMap;
  /** Parsed JSON body for routes that take JSON (filled by the host before the handler runs). */
  body: unknown;
  /** The body bytes as received (JSON routes too: an unchanged body is forwarded as these bytes). */
  rawBody?: Uint8Array;
  /** The unread body, for routes that stream it (`body: 'stream'`, e.g. uploads); the route enforces its own limit. */
  bodyStream?: AsyncIterable<Uint8Array>;
  /** Aborted when the client goes away or the gateway shuts down. */
  signal: AbortSignal;
  /**
   * The same abort without making `signal` (hosts that can offer it: node): what the upstream call
   * listens to for as long as it lasts, when no plugin gave the attempt a signal of its own.
   */
  readonly abortSource?: AbortSource;
  /** Whether the request arrived over TLS at this process (a proxy in front says so with `x-forwarded-proto`). */
  secure?: boolean;
}

export interface GatewayResponse {
  status: number;
  /** Owned by this response (never a shared object): later stages add headers to it. */
  headers: Record<string, string>;
  /** A JSON body. */
  json?: JsonPayload;
  /** A streamed body (server-sent events for inference streams); content-type in `headers`. */
  stream?: AsyncIterable<Uint8Array>;
  /** Any other body; content-type in `headers`. */
  raw?: Uint8Array | string;
}

/** Who is calling, once an auth plugin has recognised the gateway key. */
export interface Principal {
  keyId: string;
  /** `organisation-owner`, `organisation-service`, `workspace-service`, `workspace-user`, ... */
  type: string;
  role?: string;
  organisationId?: string;
  workspaceId?: string;
  /** The user a workspace-user key belongs to. */
  userId?: string;
  scopes: readonly string[];
  /** Set when the caller was named by an accepted JWT: what limits may group by (`jwt.<claim>`). */
  jwt?: JwtIdentity;
  /** The stored config (id or slug) the caller's key routes by when a request names no config. */
  defaultConfigId?: string;
  [extra: string]: unknown;
}

/** A caller's verified JWT, as an identity plugin maps it. */
export interface JwtIdentity {
  /** The verified claims as the token carried them. */
  claims: Readonly<Record<string, unknown>>;
  /** The subject, from the claim the organisation maps to it (`sub` unless configured). */
  subject: string;
  /** The groups, from the claim the organisation maps to them (empty when none). */
  groups: readonly string[];
}

export interface RouteDef {
  method: string;
  /** Path pattern; `:name` segments capture parameters, e.g. `/v1/batches/:id`. */
  path: string;
  /** How the host reads the body before the handler runs. Default `json` for POST/PUT/PATCH, else `none`. */
  body?: 'json' | 'raw' | 'stream' | 'none';
  /** Whether `onRequest` (auth, limits) runs; default true. */
  protected?: boolean;
  /**
   * Whether the gateway key may also come as `Authorization: Bearer <key>` or `x-api-key` (clients of
   * other protocols, MCP's among them, send that and cannot add `x-gw-api-key`); inference routes
   * (`endpoint`) always may. The header is then taken off the request, so nothing passes it on.
   */
  bearerKey?: boolean;
  /** The inference endpoint this route serves, when it is one. */
  endpoint?: EndpointDef;
  handler(ctx: RequestContext): Promise<GatewayResponse>;
  /**
   * For a request that asks to switch protocols (`Connection: upgrade`, a WebSocket handshake):
   * runs after `onRequest` instead of `handler`. It takes the connection over and resolves
   * undefined, or refuses with an answer (the host writes it as plain HTTP and closes). A taken
   * connection is the handler's: it tells observers of the session's end with `kernel.complete`.
   * On routes without it an upgrade request is refused (400 `upgrade_not_supported`).
   */
  upgrade?(ctx: RequestContext, upgrade: UpgradeRequest): Promise<GatewayResponse | undefined>;
}

/**
 * A protocol switch as the host received it. The kernel never looks inside: the node host gives its
 * IncomingMessage, the socket (a Duplex) and the bytes read past the headers, for a WebSocket
 * library's `handleUpgrade(message, socket, head)`.
 */
export interface UpgradeRequest {
  readonly host: 'node';
  readonly message: unknown;
  readonly socket: unknown;
  readonly head: Uint8Array;
}

/** An inference endpoint in the unified (OpenAI) format: chat, completions, embeddings ... */
export interface EndpointDef {
  /** Stable id used by adapters, policies and logs: `chatComplete`, `complete`, `embed`, `moderate` ... */
  id: string;
  /** Validates the client body with compiled schemas; returns the issues (empty when valid). */
  validate(body: unknown): Issue[];
  /** Whether `stream: true` is supported. */
  streamable: boolean;
  /** Object name of streamed chunks (`chat.completion.chunk`, `text_completion`). */
  chunkObject?: string;
  /** Optional body normalisation before routing (e.g. a default model). Must not mutate the input. */
  normalize?(body: Record<string, unknown>): Record<string, unknown>;
  /**
   * How a provider without an adapter for this endpoint still serves it: through its adapter of
   * another endpoint, the body and the answer translated both ways (an API format in front of chat).
   */
  bridge?: EndpointBridge;
  /**
   * Whether a provider's answer other than JSON passes through as it comes (audio bytes, text
   * transcripts, an event stream the body asked for otherwise than with `stream: true`); default false.
   */
  rawAnswer?: boolean;
  /** Whether its streams always report usage near their end (chat streams do only when `stream_options.include_usage` asks). */
  streamUsage?: boolean;
  /**
   * Guards this endpoint's streams once their head is sent (how a whole one ends, how a failure is
   * written); default the OpenAI-format guard (core/sse.ts guardSseStream), same contract.
   */
  guardStream?(source: AsyncIterable<Uint8Array>, onError: (e: unknown) => unknown): AsyncIterable<Uint8Array>;
}

/** An endpoint served through another endpoint's adapters (EndpointDef.bridge). */
export interface EndpointBridge {
  /** The endpoint whose provider adapters carry this one (e.g. chat). */
  readonly via: EndpointDef;
  /** The attempt's body in the other endpoint's format; may throw a GatewayError (400) for what cannot be said there. */
  request(attempt: Attempt, provider: ProviderAdapter): Record<string, unknown>;
  /** A successful JSON answer of the other endpoint (its unified format) in this endpoint's format. */
  response(answer: JsonPayload, attempt: Attempt): JsonPayload;
  /** The other endpoint's stream (its unified SSE) in this endpoint's format, event by event. */
  stream(source: AsyncIterable<Uint8Array>, attempt: Attempt): AsyncIterable<Uint8Array>;
}

/** Per-request state. One per request; never shared. */
export interface RequestContext {
  readonly request: GatewayRequest;
  readonly route: RouteDef;
  readonly params: Record<string, string>;
  readonly startedAt: number;
  /** Set by a tracing plugin; a host may log it. */
  traceId: string;
  /** `x-gw-metadata` (frozen: requests with the same header share one parsed object). */
  metadata: Readonly<Record<string, string>>;
  principal?: Principal;
  /** The inference endpoint, for inference routes. */
  endpoint?: EndpointDef;
  /** The unified request body routed to targets (inference routes); targets copy before changing it. */
  body: Record<string, unknown>;
  /** Whether the client asked for a stream. */
  stream: boolean;
  /** The validated route config, once resolved. */
  config?: ConfigNode;
  /** Headers that plugins want on the response, whatever path produced it. */
  responseHeaders: Record<string, string>;
  /** The outcome that produced the response, for inference routes. */
  outcome?: Outcome;
  /** Why the request was answered early (cache hit, denied, limited ...), for logs. */
  reason?: string;
  /**
   * Set when the stream being written ended with an error event (failed, or cut before its end
   * marker): its status is already on the wire, observers record this error instead. Cleared when
   * the answer is chosen, so a stream read whole before (and answered otherwise) does not count.
   */
  streamError?: GatewayError;
  /** Per-request values by typed key (`requestKey<T>(name)`), owned by the plugin that exports the key. */
  readonly values: RequestValues;
}

/** A leaf of the target tree with every inherited setting applied. */
export interface Target extends ConfigNode {
  /** Where this target sits in the config, e.g. `config.targets[1].targets[0]`. */
  readonly $path: string;
}

/** One try of one target. Hooks read and may replace `body` and `headers`. */
export interface Attempt {
  readonly ctx: RequestContext;
  readonly endpoint: EndpointDef;
  readonly target: Target;
  /** The request body for this target (a copy of the client body; shaping plugins copy before writing). */
  body: Record<string, unknown>;
  /** Extra headers to send upstream (e.g. forwarded client headers). */
  headers: Record<string, string>;
  /** Whether the client asked for a stream. */
  readonly stream: boolean;
  /** Aborted when the client goes away; per-attempt time-outs derive their own signal from it. */
  signal: AbortSignal;
  /** 0 for the first try, 1 for the first retry ... */
  retry: number;
}

/** What one target (or a whole strategy) produced. */
export interface Outcome {
  /** HTTP status the client would see for this outcome. */
  status: number;
  /** The answer when there is one (provider answered, guardrail denied, cache ...). */
  response?: GatewayResponse;
  /** Why there is no usable answer (network error, time-out, open circuit ...). */
  error?: GatewayError;
  /** The leaf that produced it. */
  target?: Target;
  /** Provider id that produced it. */
  provider?: string;
  /** Retries spent on the serving target. */
  retries: number;
  /** Headers of the provider's answer (retry-after ...), lower-case. */
  upstreamHeaders?: Record<string, string>;
}

export type RunTarget = (index: number) => Promise<Outcome>;

/** A routing strategy: picks and runs child targets of one node. */
export interface Strategy {
  readonly mode: string;
  /**
   * `path` names the node's place in the config (`config`, `config.targets[1]` ...), the same on
   * every request and instance: a strategy that keeps state per node (sticky choices) keys it by this.
   * The kernel always passes it; optional so that a strategy may be called without (unit tests).
   */
  route(node: ConfigNode, run: RunTarget, ctx: RequestContext, path?: string): Promise<Outcome>;
}

/** Runs one attempt of a target; wrappers (retry, breaker, time-out) return a new runner around it. */
export type AttemptRunner = (attempt: Attempt) => Promise<Outcome>;

export interface UpstreamRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  /** A streamed body (uploads) is sent as it is read. */
  body?: string | Uint8Array | AsyncIterable<Uint8Array>;
}

export interface UpstreamReply {
  status: number;
  headers: Record<string, string>;
  body: AsyncIterable<Uint8Array>;
  bytes(): Promise<Uint8Array>;
  text(): Promise<string>;
  /** Releases the connection without reading the rest. */
  dump(): Promise<void>;
}

/** The shared network path: every provider call goes through it so policies wrap them all alike. */
export interface Transport {
  /** `abort` ends the call (its connection is closed): a signal, or a cheaper source (attemptAbort). */
  send(request: UpstreamRequest, abort: AbortSignal | AbortSource): Promise<UpstreamReply>;
  close(): Promise<void>;
}

export interface AdapterInput {
  readonly attempt: Attempt;
  readonly target: Target;
  readonly endpoint: EndpointDef;
  readonly body: Record<string, unknown>;
  readonly stream: boolean;
}

/** How one provider speaks one endpoint. Pure transforms: the transport does the network. */
export interface EndpointAdapter {
  /**
   * Whether it serves this body itself (e.g. Claude models only, on a cloud that hosts others too);
   * when false, the endpoint's bridge (EndpointDef.bridge) carries it. Default true.
   */
  accepts?(body: Record<string, unknown>): boolean;
  /** Builds the upstream request. May be async (e.g. a cached token). */
  request(input: AdapterInput): UpstreamRequest | Promise<UpstreamRequest>;
  /** Turns a successful upstream JSON body into the unified shape; identity when absent. */
  response?(body: JsonPayload, input: AdapterInput): JsonPayload;
  /** Turns the upstream stream into unified SSE bytes; identity when absent. */
  stream?(body: AsyncIterable<Uint8Array>, input: AdapterInput): AsyncIterable<Uint8Array>;
  /** Content-type of the provider's stream answers; default `text/event-stream`. */
  readonly streamContentType?: string;
  /** Turns an upstream error answer into a gateway error; a default reads the OpenAI envelope. */
  error?(status: number, body: Uint8Array, input: AdapterInput, headers?: Readonly<Record<string, string>>): GatewayError;
}

/** An endpoint adapter that implements every transform (for adapters that delegate to others). */
export type CompleteEndpointAdapter = Required<Omit<EndpointAdapter, 'streamContentType' | 'accepts'>>;

export interface ProviderAdapter {
  /** Provider id as used in `provider` / `x-gw-provider`. */
  readonly id: string;
  readonly endpoints: Readonly<Record<string, EndpointAdapter>>;
  /** Extra target rules (e.g. required credentials), checked when the config is validated. */
  validateTarget?(target: ConfigNode, path: string): Issue[];
  /**
   * Its chat API refuses fields it does not document (`top_k`, `thinking`) and wants
   * `max_completion_tokens`: bodies translated from other formats leave those out.
   */
  readonly strictChat?: boolean;
  /**
   * Where a generic proxy sends a path the gateway does not serve itself, with this target's
   * credentials. Absent when the provider cannot be called that way (e.g. requests signed over
   * their body). May throw a GatewayError (400) when the target lacks what the base needs.
   */
  proxyBase?(target: ConfigNode): ProxyBase;
}

/** A provider API's root for the generic proxy: `/v1/<rest>` goes to `{url}/<rest>`. */
export interface ProxyBase {
  /** The URL standing for the client's `/v1`, without a trailing slash. */
  url: string;
  /** Sent on every proxied request, replacing the client's (credentials). */
  headers: Record<string, string>;
  /** Sent when the client did not send them (e.g. an API version the client may choose). */
  defaultHeaders?: Record<string, string>;
  /** Query parameters added when the client's query lacks them (e.g. `api-version`). */
  defaultQuery?: Record<string, string>;
}
