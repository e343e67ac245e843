/**
 * agents.agent-servers: the A2A side of the agent gateway (issue 21, item 5).
 *
 *   /v1/agent-servers                 registered A2A agents {name, slug, url, auth, workspaces}  (routes.ts)
 *   /v1/agent-servers/:id/agent-card  the agent's card, its JSON-RPC endpoint the gateway's own   (card-route.ts)
 *   /v1/agents/:id                    A2A JSON-RPC proxied to the agent (endpoint `a2a`)         (proxy.ts)
 *
 * Servers live in the record store and in memory (catalogue.ts), followed across instances on the
 * invalidation bus; their credentials are sealed with the SecretBox and never answered. A2A tasks
 * belong to the caller they were answered to (task-owners.ts, in Services.State). Every call
 * to an agent (cards, JSON-RPC) goes through the shared transport, so the outbound host rules apply.
 */
import { MAX_TIMER_MS, Services, Type, changesIn, type Plugin, type PluginApi, type Static } from '../../../core/index.js';
import { DirectoryLookup } from './access.js';
import { UpstreamAuth } from './auth.js';
import { registerCardRoute } from './card-route.js';
import { AgentCards } from './cards.js';
import { AgentServerCatalogue } from './catalogue.js';
import { registerProxyRoute } from './proxy.js';
import { AgentServerRepo } from './repo.js';
import { registerRoutes } from './routes.js';
import { TaskOwners } from './task-owners.js';

const Options = Type.Object({
  /** How often the in-memory servers are re-read (other instances' changes without a relay); 0: never. */
  reloadIntervalMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 30_000 }),
  /** How long a fetched agent card is kept (per server revision and protocol version); 0: fetched on every use. */
  cardTtlMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 300_000 }),
  /** The gateway's public base URL (e.g. https://gw.example.com) written into agent cards; default: each request's Host. */
  publicBaseUrl: Type.Optional(Type.String({ pattern: '^https?://[^\\s/?#]+(?:/[^\\s?#]*)?$', errorMessage: 'must be an http(s) URL without a query' })),
  /** How long an agent may take to answer: a card, a whole JSON answer, or a stream's headers (a stream then runs on). */
  requestTimeoutMs: Type.Integer({ minimum: 100, maximum: MAX_TIMER_MS, default: 120_000 }),
  /** The largest agent card read. */
  maxCardBytes: Type.Integer({ minimum: 1024, maximum: 16 * 1024 * 1024, default: 1024 * 1024 }),
  /** The largest non-streamed JSON-RPC answer relayed (streams are relayed as they come, unbounded). */
  maxResponseBytes: Type.Integer({ minimum: 1024, maximum: 256 * 1024 * 1024, default: 16 * 1024 * 1024 }),
  /** How long the owner of an A2A task (and context) is kept after the last answer naming it; after that nobody may use it. */
  taskOwnerTtlMs: Type.Integer({ minimum: 100, maximum: MAX_TIMER_MS, default: 24 * 60 * 60 * 1000 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

/** A store that is down fails every call: one warning per interval is enough. */
const STORE_WARNING_INTERVAL_MS = 10_000;

function atMostEvery(ms: number, warn: (error: unknown) => void): (error: unknown) => void {
  let last = -Infinity;
  return (error) => {
    const now = performance.now();
    if (now - last < ms) return;
    last = now;
    warn(error);
  };
}

export default class AgentServersPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'agents.agent-servers',
    description: 'A2A agent servers: /v1/agent-servers, their rewritten agent cards, and /v1/agents/:id proxying A2A JSON-RPC',
    requires: [Services.Records, Services.SecretBox, Services.State], dependsOn: ['security.secret-box'],
    options: Options,
  };

  #timer?: NodeJS.Timeout;

  async apply(api: PluginApi<Options>): Promise<void> {
    const { services, options } = api;
    const repo = new AgentServerRepo(services.get(Services.Records));
    await repo.init();
    const catalogue = new AgentServerCatalogue(repo);
    await catalogue.reload();
    catalogue.follow(changesIn(services), (e) => api.logger.warn({ err: e }, 'reloading agent servers failed'));
    const box = services.get(Services.SecretBox);
    const transport = services.get(Services.Transport);
    const auth = new UpstreamAuth(box);
    const cards = new AgentCards(transport, auth, { ttlMs: options.cardTtlMs, timeoutMs: options.requestTimeoutMs, maxBytes: options.maxCardBytes });

    const owners = new TaskOwners({
      store: () => services.get(Services.State),
      ttlMs: options.taskOwnerTtlMs,
      onCheckError: atMostEvery(STORE_WARNING_INTERVAL_MS, (e) => api.logger.warn({ err: e }, 'state store failed: A2A task owners cannot be checked (calls naming a task answer 503)')),
      onRecordError: atMostEvery(STORE_WARNING_INTERVAL_MS, (e) => api.logger.warn({ err: e }, 'state store failed: the owner of an A2A task was not recorded (it is refused to everyone)')),
    });

    registerRoutes(api.registries.routes, { repo, catalogue, box, directory: new DirectoryLookup(services), forget: (s) => cards.forget(s) });
    registerCardRoute(api.registries.routes, { catalogue, cards, publicBaseUrl: options.publicBaseUrl });
    registerProxyRoute(api.registries.routes, {
      catalogue, cards, auth, transport,
      kernel: () => services.get(Services.Kernel),
      owners,
      timeoutMs: options.requestTimeoutMs,
      maxResponseBytes: options.maxResponseBytes,
    });

    if (options.reloadIntervalMs > 0) {
      this.#timer = setInterval(() => {
        catalogue.reload().catch((e: unknown) => api.logger.warn({ err: e }, 'reloading agent servers failed'));
      }, options.reloadIntervalMs);
      this.#timer.unref();
    }
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer);
  }
}
