/**
 * Every stored guardrail in memory: the guardrail runner looks references up synchronously when a
 * config is validated (core GuardrailStore). Local writes apply at once; other instances reload on the
 * invalidation bus (topic `guardrails`), or at their periodic reload when no relay carries changes.
 */
import type { Changes, GuardrailStore } from '../../../core/index.js';
import type { Guardrail } from './record.js';
import type { GuardrailRepo } from './repo.js';

export const GUARDRAILS_TOPIC = 'guardrails';

export class GuardrailCatalogue implements GuardrailStore {
  #byId = new Map<string, Guardrail>();
  /** slug → the guardrails with that slug (one per organisation at most). */
  #bySlug = new Map<string, Guardrail[]>();
  #writes = 0;
  #changes: Changes | undefined;
  #revision = 0;

  constructor(private readonly repo: GuardrailRepo) {}

  /**
   * Bumped whenever a guardrail changes, so that a reader caching what it built from `get`
   * (the runner's compiled plans) can tell it is stale.
   */
  get revision(): number {
    return this.#revision;
  }

  async reload(): Promise<void> {
    const writes = this.#writes;
    const all = await this.repo.all();
    if (writes !== this.#writes) return;
    const next = new Map<string, Guardrail>();
    let changed = all.length !== this.#byId.size;
    for (const g of all) {
      const known = this.#byId.get(g.id);
      const same = known !== undefined && known.revision === g.revision;
      if (!same) changed = true;
      next.set(g.id, same ? known : g);
    }
    this.#byId = next;
    if (changed) this.#reindex();
  }

  /** Reloads when any instance writes; tells the others about this instance's writes. */
  follow(changes: Changes, onError: (error: unknown) => void): void {
    changes.subscribe(GUARDRAILS_TOPIC, () => void this.reload().catch(onError));
    this.#changes = changes;
  }

  put(g: Guardrail): void {
    this.#writes++;
    this.#byId.set(g.id, g);
    this.#reindex();
    this.#changes?.publish(GUARDRAILS_TOPIC, g.id);
  }

  remove(id: string): void {
    this.#writes++;
    this.#byId.delete(id);
    this.#reindex();
    this.#changes?.publish(GUARDRAILS_TOPIC, id);
  }

  /**
   * The runner's lookup: by id, or by slug when exactly one organisation has it (the runner's
   * lookup knows no organisation, so gateways with several should reference guardrails by id).
   */
  get(ref: string): Readonly<Record<string, unknown>> | undefined {
    const g = this.#byId.get(ref);
    if (g) return g.hook;
    const bySlug = this.#bySlug.get(ref);
    return bySlug?.length === 1 ? bySlug[0]!.hook : undefined;
  }

  /** By id or slug within an organisation (admin routes). */
  find(organisationId: string, ref: string): Guardrail | undefined {
    const g = this.#byId.get(ref);
    if (g && g.organisationId === organisationId) return g;
    return this.#bySlug.get(ref)?.find((x) => x.organisationId === organisationId);
  }

  list(organisationId: string): Guardrail[] {
    const out: Guardrail[] = [];
    for (const g of this.#byId.values()) if (g.organisationId === organisationId) out.push(g);
    return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  #reindex(): void {
    this.#revision++;
    const index = new Map<string, Guardrail[]>();
    for (const g of this.#byId.values()) {
      const list = index.get(g.slug);
      if (list) list.push(g);
      else index.set(g.slug, [g]);
    }
    this.#bySlug = index;
  }
}
