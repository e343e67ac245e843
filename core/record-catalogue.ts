/**
 * Every record of one kind in memory (integrations, secret references, MCP and agent servers):
 * requests find theirs by id or by slug within an organisation without touching the store. Local
 * writes apply at once; other instances reload on the invalidation bus (the kind's topic), or at
 * their periodic reload when no relay carries changes. An unchanged row (same revision) keeps its
 * object, so caches keyed by the object (opened credentials, fetched secrets) survive a reload.
 */
import { nowIso } from './admin.js';
import type { Changes } from './changes.js';
import { Errors, type GatewayError } from './errors.js';

export interface CatalogueRecord {
  readonly id: string;
  readonly slug: string;
  readonly organisationId: string;
  readonly revision: number;
}

export interface CatalogueOptions<T> {
  /** The invalidation-bus topic of the kind. */
  topic: string;
  /** Reads every stored record. */
  all(): Promise<T[]>;
  /** Other names a record answers to within its organisation; a slug always wins over an alias. */
  aliases?(record: T): readonly string[];
}

export class RecordCatalogue<T extends CatalogueRecord> {
  #byId = new Map<string, T>();
  /** organisation → slug (or alias) → record. */
  #bySlug = new Map<string, Map<string, T>>();
  /** Bumped by every local write, so that a reload that raced with one is dropped. */
  #writes = 0;
  #changes: Changes | undefined;
  readonly #listeners: Array<(id: string) => void> = [];

  constructor(private readonly options: CatalogueOptions<T>) {}

  async reload(): Promise<void> {
    const writes = this.#writes;
    const rows = await this.options.all();
    if (writes !== this.#writes) return; // a local write happened meanwhile: the next reload catches up
    const next = new Map<string, T>();
    for (const row of rows) {
      const known = this.#byId.get(row.id);
      next.set(row.id, known && known.revision === row.revision ? known : row);
    }
    const changed = [...this.#byId.values()].filter((r) => next.get(r.id) !== r).map((r) => r.id);
    this.#byId = next;
    this.#reindex();
    for (const id of changed) this.#tell(id);
  }

  /** Reloads when any instance writes; tells the others about this instance's writes. */
  follow(changes: Changes, onError: (error: unknown) => void): void {
    changes.subscribe(this.options.topic, () => void this.reload().catch(onError));
    this.#changes = changes;
  }

  /** Tells `listener` the id of every record that changed or went away (here or, after a reload, elsewhere). */
  onChange(listener: (id: string) => void): void {
    this.#listeners.push(listener);
  }

  put(record: T): void {
    this.#write(record.id, () => this.#byId.set(record.id, record));
  }

  remove(id: string): void {
    this.#write(id, () => this.#byId.delete(id));
  }

  byId(id: string): T | undefined {
    return this.#byId.get(id);
  }

  /** By slug (or alias) within an organisation. */
  bySlug(organisationId: string, slug: string): T | undefined {
    return this.#bySlug.get(organisationId)?.get(slug);
  }

  /** By id (of the organisation) or slug: what the admin routes accept. */
  find(organisationId: string, ref: string): T | undefined {
    const byId = this.#byId.get(ref);
    if (byId && byId.organisationId === organisationId) return byId;
    return this.bySlug(organisationId, ref);
  }

  /** Whether `slug` names another record of the organisation than `exceptId`. */
  slugTaken(organisationId: string, slug: string, exceptId?: string): boolean {
    const other = this.bySlug(organisationId, slug);
    return other !== undefined && other.id !== exceptId;
  }

  /** The organisation's records by slug. */
  list(organisationId: string): T[] {
    const out: T[] = [];
    for (const r of this.#byId.values()) if (r.organisationId === organisationId) out.push(r);
    return out.sort((a, b) => a.slug.localeCompare(b.slug));
  }

  #write(id: string, apply: () => void): void {
    this.#writes++;
    apply();
    this.#reindex();
    this.#tell(id);
    this.#changes?.publish(this.options.topic, id);
  }

  #tell(id: string): void {
    for (const listener of this.#listeners) listener(id);
  }

  #reindex(): void {
    const index = new Map<string, Map<string, T>>();
    const orgOf = (r: T) => {
      let org = index.get(r.organisationId);
      if (!org) index.set(r.organisationId, (org = new Map()));
      return org;
    };
    for (const r of this.#byId.values()) orgOf(r).set(r.slug, r);
    const aliases = this.options.aliases;
    if (aliases) {
      for (const r of this.#byId.values()) {
        const org = orgOf(r);
        for (const alias of aliases(r)) if (!org.has(alias)) org.set(alias, r);
      }
    }
    this.#bySlug = index;
  }
}

/** The columns every catalogued row has. */
export interface CatalogueRow {
  slug: string;
  revision: number;
  last_updated_at: string;
}

/** What writes a kind of record: its store, how a row becomes a record, and its name in messages. */
export interface RecordWriter<T extends CatalogueRecord, R extends CatalogueRow> {
  catalogue: RecordCatalogue<T>;
  insert(row: R): Promise<unknown>;
  /** false when no row of that id and the previous revision exists (changed or deleted meanwhile). */
  update(row: R): Promise<boolean>;
  fromRow(row: R): T;
  /** e.g. `integration`, `MCP server`. */
  kind: string;
}

const isUniqueViolation = (e: unknown) => /unique/i.test((e as Error | undefined)?.message ?? '');

function slugTakenError(kind: string, slug: string): GatewayError {
  return Errors.invalidBody('slug', `"${slug}" is taken by another ${kind}`);
}

/** Stores a new record and holds it; a slug another instance took first (the store's unique constraint) is a 400 naming `slug`. */
export async function insertRecord<T extends CatalogueRecord, R extends CatalogueRow>(writer: RecordWriter<T, R>, row: R): Promise<T> {
  try {
    await writer.insert(row);
  } catch (e) {
    if (isUniqueViolation(e)) throw slugTakenError(writer.kind, row.slug);
    throw e;
  }
  const record = writer.fromRow(row);
  writer.catalogue.put(record);
  return record;
}

/**
 * Saves `row` over `current` as its next revision, optimistically: when another instance changed or
 * deleted the record meanwhile, the catalogue reloads and the caller gets a 400 `conflict`.
 */
export async function saveRecord<T extends CatalogueRecord, R extends CatalogueRow>(writer: RecordWriter<T, R>, current: T, row: R): Promise<T> {
  row.revision = current.revision + 1;
  row.last_updated_at = nowIso();
  let ok: boolean;
  try {
    ok = await writer.update(row);
  } catch (e) {
    if (isUniqueViolation(e)) throw slugTakenError(writer.kind, row.slug);
    throw e;
  }
  if (!ok) {
    await writer.catalogue.reload();
    throw Errors.invalidRequest(`${writer.kind} "${current.slug}" was changed or deleted meanwhile: read it again`, null, 'conflict');
  }
  const saved = writer.fromRow(row);
  writer.catalogue.put(saved);
  return saved;
}
