/**
 * Every registered MCP server, in memory: the MCP gateway finds servers without touching the store.
 * Local writes update it at once; other instances reload on the invalidation bus (topic
 * `mcp-servers`), or at their periodic reload when no relay carries changes (unchanged rows keep
 * their object, so caches keyed by it survive).
 */
import type { Changes } from '../../../core/index.js';
import type { McpServer } from './record.js';
import type { McpServerRepo } from './repo.js';

export const MCP_SERVERS_TOPIC = 'mcp-servers';

export class McpServerCatalogue {
  #byId = new Map<string, McpServer>();
  /** organisation → slug → server. */
  #bySlug = new Map<string, Map<string, McpServer>>();
  /** Bumped by every local write, so that a reload that raced with one is dropped. */
  #writes = 0;
  #changes: Changes | undefined;
  /** Told of every server that changed or went away (cached tokens and secrets of it are stale). */
  readonly #onChange: Array<(id: string) => void> = [];

  constructor(private readonly repo: McpServerRepo) {}

  async reload(): Promise<void> {
    const writes = this.#writes;
    const rows = await this.repo.all();
    if (writes !== this.#writes) return; // a local write happened meanwhile: the next reload catches up
    const next = new Map<string, McpServer>();
    for (const row of rows) {
      const known = this.#byId.get(row.id);
      next.set(row.id, known && known.revision === row.revision ? known : row);
    }
    const changed = [...this.#byId.values()].filter((s) => next.get(s.id) !== s).map((s) => s.id);
    this.#byId = next;
    this.#reindex();
    for (const id of changed) this.#tell(id);
  }

  /** Reloads when any instance writes; tells the others about this instance's writes. */
  follow(changes: Changes, onError: (error: unknown) => void): void {
    changes.subscribe(MCP_SERVERS_TOPIC, () => void this.reload().catch(onError));
    this.#changes = changes;
  }

  onChange(listener: (id: string) => void): void {
    this.#onChange.push(listener);
  }

  put(server: McpServer): void {
    this.#writes++;
    this.#byId.set(server.id, server);
    this.#reindex();
    this.#tell(server.id);
    this.#changes?.publish(MCP_SERVERS_TOPIC, server.id);
  }

  remove(id: string): void {
    this.#writes++;
    this.#byId.delete(id);
    this.#reindex();
    this.#tell(id);
    this.#changes?.publish(MCP_SERVERS_TOPIC, id);
  }

  byId(id: string): McpServer | undefined {
    return this.#byId.get(id);
  }

  /** By id (of the organisation) or slug. */
  find(organisationId: string, ref: string): McpServer | undefined {
    const byId = this.#byId.get(ref);
    if (byId && byId.organisationId === organisationId) return byId;
    return this.#bySlug.get(organisationId)?.get(ref);
  }

  /** Whether `slug` names another server of the organisation than `exceptId`. */
  slugTaken(organisationId: string, slug: string, exceptId?: string): boolean {
    const other = this.#bySlug.get(organisationId)?.get(slug);
    return other !== undefined && other.id !== exceptId;
  }

  list(organisationId: string): McpServer[] {
    const out: McpServer[] = [];
    for (const s of this.#byId.values()) if (s.organisationId === organisationId) out.push(s);
    return out.sort((a, b) => a.slug.localeCompare(b.slug));
  }

  #tell(id: string): void {
    for (const listener of this.#onChange) listener(id);
  }

  #reindex(): void {
    const index = new Map<string, Map<string, McpServer>>();
    for (const s of this.#byId.values()) {
      let org = index.get(s.organisationId);
      if (!org) index.set(s.organisationId, (org = new Map()));
      org.set(s.slug, s);
    }
    this.#bySlug = index;
  }
}
