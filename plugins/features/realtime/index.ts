/**
 * feature.realtime: `GET /v1/realtime?model=...` WebSocket sessions proxied to an OpenAI-compatible
 * realtime endpoint (or Azure OpenAI's), with the `ws` package.
 *
 *   upgrade request → onRequest (gateway key: `x-gw-api-key`, or the browsers' subprotocol
 *   `openai-insecure-api-key.<key>`, see handshake.ts) → route config (headers, or query
 *   parameters for browsers) → its first leaf → limits (endpoint_type `realtime`) → outbound
 *   host policy → client accepted → upstream opened with the provider's credential → relay
 *   (session.ts) → one request-log row per session at its end (report.ts).
 *
 * Every refusal before the switch is plain HTTP in the error envelope (401, 400, 403, 429 ...),
 * and no upstream connection is made. A plain GET (no upgrade) answers 426.
 */
import type { WebSocket, WebSocketServer } from 'ws';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  Errors, firstLeaf, GatewayError, lazy, MAX_TIMER_MS, OutboundPolicy, policyLookup, Services, Stage, Type,
  type EndpointDef, type Plugin, type PluginApi, type RequestContext, type RouteDef, type Static,
} from '../../../core/index.js';
import { adoptBrowserCredentials, KEY_PROTOCOL_PREFIX, offeredProtocols } from './handshake.js';
import { reportSession } from './report.js';
import { upstreamTarget } from './upstream-target.js';

const Options = Type.Object({
  /**
   * OpenAI-compatible providers with a realtime endpoint: provider id → default base URL (with the
   * version segment; `<base>/realtime` is dialled, http(s) as ws(s)). A target's `custom_host`
   * replaces the base. `azure-openai` targets use their resource and deployment.
   */
  providers: Type.Record(Type.String({ minLength: 1 }), Type.String({ pattern: '^(https?|wss?)://' }), {
    default: { openai: 'https://api.openai.com/v1' },
  }),
  /** `api-version` of Azure OpenAI's realtime endpoint when the target sets no `api_version`. */
  azureApiVersion: Type.String({ minLength: 1, default: '2024-10-01-preview' }),
  /** Time the upstream has to accept the WebSocket handshake. */
  handshakeTimeoutMs: Type.Integer({ minimum: 1, maximum: MAX_TIMER_MS, default: 10_000 }),
  /** A session with no frame either way for this long is closed (1001); 0 turns it off. */
  idleTimeoutMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 300_000 }),
  /** Largest message either side may send; a larger one closes its sender with 1009. */
  maxFrameBytes: Type.Integer({ minimum: 1024, maximum: 256 * 1024 * 1024, default: 16 * 1024 * 1024 }),
  /** Send buffer of one side beyond which the other side is no longer read (backpressure). */
  highWaterBytes: Type.Integer({ minimum: 1024, maximum: 256 * 1024 * 1024, default: 1024 * 1024 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

/** `ws` and the relay, imported on the first upgrade. */
const wsServer = lazy(() => import('./ws-server.js'));

export const REALTIME_PATH = '/v1/realtime';
/** Marks the route for limits, logs and metrics (`endpoint_type` `realtime`). */
export const REALTIME_ENDPOINT: EndpointDef = Object.freeze({ id: 'realtime', validate: () => [], streamable: true });

export default class RealtimePlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'feature.realtime',
    description: 'Realtime WebSocket sessions (GET /v1/realtime) proxied to OpenAI-compatible realtime endpoints',
    options: Options,
  };

  readonly #sessions = new Set<WebSocket>();
  #server: WebSocketServer | undefined;

  apply(api: PluginApi<Options>): void {
    const kernel = api.services.get(Services.Kernel);
    const options = api.options;
    const policy = new OutboundPolicy(api.settings.outbound);
    const lookup = policyLookup(policy);
    // The 101 is written by ws: the headers plugins set for the answer (trace id, provider) join it there.
    const pending = new WeakMap<IncomingMessage, RequestContext>();

    const route: RouteDef = {
      method: 'GET', path: REALTIME_PATH, body: 'none', endpoint: REALTIME_ENDPOINT,
      handler: () => Promise.reject(upgradeRequired()),
      upgrade: async (ctx, upgrade) => {
        if (upgrade.host !== 'node') throw upgradeRequired();
        checkHandshake(ctx);
        const model = ctx.request.query.get('model');
        if (model !== null) ctx.body = { model };
        const config = await kernel.resolveConfig(ctx);
        const target = upstreamTarget(firstLeaf(config, api.configKeys), ctx.request.query, ctx.request.headers, options);
        const early = await kernel.preRoute(ctx);
        if (early) return early;
        const refusal = policy.judgeHost(target.url.hostname);
        if (refusal) throw refusal;
        ctx.responseHeaders['x-gw-provider'] = target.provider;
        const { createSessionServer, RealtimeSession } = wsServer.loaded ?? await wsServer();
        const server = this.#server ??= createSessionServer(options.maxFrameBytes, (request) => pending.get(request)?.responseHeaders);
        pending.set(upgrade.message as IncomingMessage, ctx);
        server.handleUpgrade(upgrade.message as IncomingMessage, upgrade.socket as Duplex, Buffer.from(upgrade.head), (client) => {
          this.#sessions.add(client);
          client.once('close', () => this.#sessions.delete(client));
          const protocols = offeredProtocols(ctx.request.headers).filter((p) => !p.startsWith(KEY_PROTOCOL_PREFIX));
          new RealtimeSession(client, target, protocols, options, lookup, ctx.request.signal, (end) => reportSession(kernel, ctx, target, end));
        });
        return undefined;
      },
    };

    api.registries.routes.add(route);

    // Before the key check, and only on this route: a browser's key and config arrive elsewhere.
    api.hooks.onRequest.tap({ name: api.id, stage: Stage.BEFORE_AUTH }, (ctx) => {
      if (ctx.route === route) adoptBrowserCredentials(ctx.request.headers, ctx.request.query);
    });
  }

  close(): void {
    for (const client of this.#sessions) client.terminate();
    this.#server?.close();
  }
}

function upgradeRequired(): GatewayError {
  return new GatewayError({
    status: 426, code: 'upgrade_required', headers: { upgrade: 'websocket' },
    message: `${REALTIME_PATH} is a WebSocket endpoint: connect with a WebSocket handshake (Upgrade: websocket)`,
  });
}

/** What ws would otherwise refuse with its own bare 400, refused in the error envelope instead. */
function checkHandshake(ctx: RequestContext): void {
  const headers = ctx.request.headers;
  if (headers['upgrade']?.toLowerCase() !== 'websocket') throw Errors.invalidHeader('upgrade', 'must be "websocket"');
  if (headers['sec-websocket-version'] !== '13') throw Errors.invalidHeader('sec-websocket-version', 'must be 13');
  const key = headers['sec-websocket-key'];
  if (key === undefined || !/^[A-Za-z0-9+/]{22}==$/.test(key.trim())) throw Errors.invalidHeader('sec-websocket-key', 'must be 16 bytes in base64');
}
