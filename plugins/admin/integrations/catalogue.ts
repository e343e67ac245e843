/**
 * Every integration of the store, in memory: requests resolve `@slug` and virtual keys without
 * touching the store. Local writes update it at once; other instances reload on the invalidation
 * bus (topic `integrations`), or at their periodic reload when no relay carries changes (unchanged
 * rows keep their object, so caches keyed by it survive).
 */
import type { Changes } from '../../../core/index.js';
import type { Integration } from './record.js';
import type { IntegrationRepo } from './repo.js';

export const INTEGRATIONS_TOPIC = 'integrations';

export class IntegrationCatalogue {
  #byId = new Map<string, Integration>();
  /** organisation → slug or default-provider slug → integration. */
  #bySlug = new Map<string, Map<string, Integration>>();
  /** Bumped by every local write, so that a reload that raced with one is dropped. */
  #writes = 0;
  #changes: Changes | undefined;

  constructor(private readonly repo: IntegrationRepo) {}

  async reload(): Promise<void> {
    const writes = this.#writes;
    const rows = await this.repo.all();
    if (writes !== this.#writes) return; // a local write happened meanwhile: the next reload catches up
    const next = new Map<string, Integration>();
    for (const row of rows) {
      const known = this.#byId.get(row.id);
      next.set(row.id, known && known.revision === row.revision ? known : row);
    }
    this.#byId = next;
    this.#reindex();
  }

  /** Reloads when any instance writes; tells the others about this instance's writes. */
  follow(changes: Changes, onError: (error: unknown) => void): void {
    changes.subscribe(INTEGRATIONS_TOPIC, () => void this.reload().catch(onError));
    this.#changes = changes;
  }

  put(integration: Integration): void {
    this.#writes++;
    this.#byId.set(integration.id, integration);
    this.#reindex();
    this.#changes?.publish(INTEGRATIONS_TOPIC, integration.id);
  }

  remove(id: string): void {
    this.#writes++;
    this.#byId.delete(id);
    this.#reindex();
    this.#changes?.publish(INTEGRATIONS_TOPIC, id);
  }

  byId(id: string): Integration | undefined {
    return this.#byId.get(id);
  }

  /** By slug or default-provider slug, within an organisation. */
  bySlug(organisationId: string, slug: string): Integration | undefined {
    return this.#bySlug.get(organisationId)?.get(slug);
  }

  /** By id (of the organisation) or slug: what `virtual_key` and the admin routes accept. */
  find(organisationId: string, ref: string): Integration | undefined {
    const byId = this.#byId.get(ref);
    if (byId && byId.organisationId === organisationId) return byId;
    return this.bySlug(organisationId, ref);
  }

  /** Whether `slug` names another integration of the organisation than `exceptId`. */
  slugTaken(organisationId: string, slug: string, exceptId?: string): boolean {
    const other = this.bySlug(organisationId, slug);
    return other !== undefined && other.id !== exceptId;
  }

  list(organisationId: string): Integration[] {
    const out: Integration[] = [];
    for (const i of this.#byId.values()) if (i.organisationId === organisationId) out.push(i);
    return out.sort((a, b) => a.slug.localeCompare(b.slug));
  }

  #reindex(): void {
    const index = new Map<string, Map<string, Integration>>();
    for (const i of this.#byId.values()) {
      let org = index.get(i.organisationId);
      if (!org) index.set(i.organisationId, (org = new Map()));
      org.set(i.slug, i);
      if (i.providerSlug !== undefined && !org.has(i.providerSlug)) org.set(i.providerSlug, i);
    }
    this.#bySlug = index;
  }
}
