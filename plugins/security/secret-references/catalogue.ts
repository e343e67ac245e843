/**
 * Every secret reference of the store, in memory: a request resolves a reference without touching
 * the store. Local writes apply at once; other instances reload on the invalidation bus (topic
 * `secret-references`) or at the periodic reload. An unchanged row keeps its object, so the value
 * cached for it survives a reload; a changed one is a new object, fetched afresh.
 */
import type { Changes } from '../../../core/index.js';
import type { SecretReference } from './record.js';
import type { SecretReferenceRepo } from './repo.js';

export const SECRET_REFERENCES_TOPIC = 'secret-references';

export class SecretReferenceCatalogue {
  #byId = new Map<string, SecretReference>();
  /** organisation → slug → reference. */
  #bySlug = new Map<string, Map<string, SecretReference>>();
  /** Bumped by every local write, so that a reload that raced with one is dropped. */
  #writes = 0;
  #changes: Changes | undefined;

  constructor(private readonly repo: SecretReferenceRepo) {}

  async reload(): Promise<void> {
    const writes = this.#writes;
    const rows = await this.repo.all();
    if (writes !== this.#writes) return;
    const next = new Map<string, SecretReference>();
    for (const row of rows) {
      const known = this.#byId.get(row.id);
      next.set(row.id, known && known.revision === row.revision ? known : row);
    }
    this.#byId = next;
    this.#reindex();
  }

  follow(changes: Changes, onError: (error: unknown) => void): void {
    changes.subscribe(SECRET_REFERENCES_TOPIC, () => void this.reload().catch(onError));
    this.#changes = changes;
  }

  put(reference: SecretReference): void {
    this.#writes++;
    this.#byId.set(reference.id, reference);
    this.#reindex();
    this.#changes?.publish(SECRET_REFERENCES_TOPIC, reference.id);
  }

  remove(id: string): void {
    this.#writes++;
    this.#byId.delete(id);
    this.#reindex();
    this.#changes?.publish(SECRET_REFERENCES_TOPIC, id);
  }

  bySlug(organisationId: string, slug: string): SecretReference | undefined {
    return this.#bySlug.get(organisationId)?.get(slug);
  }

  /** By id (of the organisation) or slug: what the routes accept. */
  find(organisationId: string, ref: string): SecretReference | undefined {
    const byId = this.#byId.get(ref);
    if (byId && byId.organisationId === organisationId) return byId;
    return this.bySlug(organisationId, ref);
  }

  slugTaken(organisationId: string, slug: string, exceptId?: string): boolean {
    const other = this.bySlug(organisationId, slug);
    return other !== undefined && other.id !== exceptId;
  }

  list(organisationId: string): SecretReference[] {
    const out = [...(this.#bySlug.get(organisationId)?.values() ?? [])];
    return out.sort((a, b) => a.slug.localeCompare(b.slug));
  }

  #reindex(): void {
    const index = new Map<string, Map<string, SecretReference>>();
    for (const r of this.#byId.values()) {
      let org = index.get(r.organisationId);
      if (!org) index.set(r.organisationId, (org = new Map()));
      org.set(r.slug, r);
    }
    this.#bySlug = index;
  }
}
