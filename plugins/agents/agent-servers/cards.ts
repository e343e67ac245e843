/**
 * Agent cards, fetched from `{url}/.well-known/agent-card.json` through the shared transport and
 * kept for `cardTtlMs` per server revision and requested protocol version (a v1.0 SDK server
 * answers a v0.3 card to a v0.3 client: the A2A-Version header picks the shape). One fetch per
 * key at a time: callers that arrive meanwhile share it. Only cards with a JSON-RPC interface are
 * kept; failures are not.
 */
import { Errors, type Transport } from '../../../core/index.js';
import type { UpstreamAuth } from './auth.js';
import { checkCard, checkProxiable, type Card } from './card-shape.js';
import type { AgentServer } from './record.js';
import { callAgent, mediaType, readLimited } from './upstream.js';

export const CARD_PATH = '/.well-known/agent-card.json';

export interface CardOptions {
  ttlMs: number;
  timeoutMs: number;
  maxBytes: number;
}

interface Kept {
  revision: number;
  card: Card;
  expiresAt: number;
}

/** Nobody cancels a shared fetch: one caller leaving must not fail the others. */
const NEVER = new AbortController().signal;

export class AgentCards {
  /** server id → requested version ('' for none) → card. */
  readonly #kept = new Map<string, Map<string, Kept>>();
  readonly #pending = new Map<string, Promise<Card>>();

  constructor(
    private readonly transport: Transport,
    private readonly auth: UpstreamAuth,
    private readonly options: CardOptions,
  ) {}

  /** The agent's card as it answered it (parsed, checked for shape). */
  get(server: AgentServer, version: string | undefined): Promise<Card> {
    const versionKey = version ?? '';
    const kept = this.#kept.get(server.id)?.get(versionKey);
    if (kept && kept.revision === server.revision && kept.expiresAt > Date.now()) return Promise.resolve(kept.card);
    const key = `${server.id}\n${server.revision}\n${versionKey}`;
    let pending = this.#pending.get(key);
    if (!pending) {
      pending = this.#fetch(server, version).then((card) => {
        this.#keep(server, versionKey, card);
        return card;
      }).finally(() => this.#pending.delete(key));
      this.#pending.set(key, pending);
    }
    return pending;
  }

  cardUrl(server: AgentServer): string {
    return server.url + CARD_PATH;
  }

  forget(server: AgentServer): void {
    this.#kept.delete(server.id);
  }

  #keep(server: AgentServer, versionKey: string, card: Card): void {
    if (this.options.ttlMs <= 0) return;
    let versions = this.#kept.get(server.id);
    if (!versions) this.#kept.set(server.id, (versions = new Map()));
    versions.set(versionKey, { revision: server.revision, card, expiresAt: Date.now() + this.options.ttlMs });
  }

  async #fetch(server: AgentServer, version: string | undefined): Promise<Card> {
    const headers: Record<string, string> = { accept: 'application/json', ...this.auth.headers(server) };
    if (version !== undefined) headers['a2a-version'] = version;
    const { reply, settle } = await callAgent(this.transport, { url: this.cardUrl(server), method: 'GET', headers }, NEVER, this.options.timeoutMs, server.slug);
    try {
      if (reply.status !== 200) {
        await reply.dump();
        throw Errors.badGateway(`agent server "${server.slug}" answered HTTP ${reply.status} for its agent card (${CARD_PATH})`, server.slug);
      }
      const type = mediaType(reply.headers);
      const bytes = await readLimited(reply, this.options.maxBytes, server.slug);
      let parsed: unknown;
      try {
        parsed = JSON.parse(bytes.toString('utf8'));
      } catch {
        throw Errors.badGateway(`agent server "${server.slug}" answered its agent card with something that is not JSON (${type || 'no content-type'})`, server.slug);
      }
      return checkProxiable(checkCard(parsed, server.slug), this.cardUrl(server), server.slug);
    } finally {
      settle();
    }
  }
}
