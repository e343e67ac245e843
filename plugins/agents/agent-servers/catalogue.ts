/**
 * Every agent server of the store, in memory: calls find theirs without touching the store. Local
 * writes update it at once; other instances reload on the invalidation bus (topic `agent-servers`)
 * or at their periodic reload (unchanged rows keep their object).
 */
import type { Changes } from '../../../core/index.js';
import type { AgentServer } from './record.js';
import type { AgentServerRepo } from './repo.js';

export const AGENT_SERVERS_TOPIC = 'agent-servers';

export class AgentServerCatalogue {
  #byId = new Map<string, AgentServer>();
  /** organisation → slug → server. */
  #bySlug = new Map<string, Map<string, AgentServer>>();
  /** Bumped by every local write, so that a reload that raced with one is dropped. */
  #writes = 0;
  #changes: Changes | undefined;

  constructor(private readonly repo: AgentServerRepo) {}

  async reload(): Promise<void> {
    const writes = this.#writes;
    const rows = await this.repo.all();
    if (writes !== this.#writes) return; // a local write happened meanwhile: the next reload catches up
    const next = new Map<string, AgentServer>();
    for (const row of rows) {
      const known = this.#byId.get(row.id);
      next.set(row.id, known && known.revision === row.revision ? known : row);
    }
    this.#byId = next;
    this.#reindex();
  }

  /** Reloads when any instance writes; tells the others about this instance's writes. */
  follow(changes: Changes, onError: (error: unknown) => void): void {
    changes.subscribe(AGENT_SERVERS_TOPIC, () => void this.reload().catch(onError));
    this.#changes = changes;
  }

  put(server: AgentServer): void {
    this.#writes++;
    this.#byId.set(server.id, server);
    this.#reindex();
    this.#changes?.publish(AGENT_SERVERS_TOPIC, server.id);
  }

  remove(id: string): void {
    this.#writes++;
    this.#byId.delete(id);
    this.#reindex();
    this.#changes?.publish(AGENT_SERVERS_TOPIC, id);
  }

  /** By id (of the organisation) or slug. */
  find(organisationId: string, ref: string): AgentServer | undefined {
    const byId = this.#byId.get(ref);
    if (byId && byId.organisationId === organisationId) return byId;
    return this.#bySlug.get(organisationId)?.get(ref);
  }

  slugTaken(organisationId: string, slug: string, exceptId?: string): boolean {
    const other = this.#bySlug.get(organisationId)?.get(slug);
    return other !== undefined && other.id !== exceptId;
  }

  list(organisationId: string): AgentServer[] {
    const out: AgentServer[] = [];
    for (const s of this.#byId.values()) if (s.organisationId === organisationId) out.push(s);
    return out.sort((a, b) => a.slug.localeCompare(b.slug));
  }

  #reindex(): void {
    const index = new Map<string, Map<string, AgentServer>>();
    for (const s of this.#byId.values()) {
      let org = index.get(s.organisationId);
      if (!org) index.set(s.organisationId, (org = new Map()));
      org.set(s.slug, s);
    }
    this.#bySlug = index;
  }
}
