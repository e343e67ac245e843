/**
 * Organisations and workspaces held in memory (a handful of rows): `@slug`-style lookups, settings
 * and the services other plugins read on their hot paths never touch the store. Every write here
 * reloads the tables, here and on every other instance through the invalidation bus (topic
 * `workspaces`); `refreshIntervalMs` bounds staleness when no relay carries changes. Keys of archived
 * workspaces are suspended in the key store (refused with 401) for as long as they stay archived.
 */
import type { Changes, KeyStore } from '../../../core/index.js';
import {
  effectiveValues, organisationValues, parseSettings, type Settings,
} from './settings.js';
import type { OrganisationRow, WorkspaceRepo, WorkspaceRow } from './workspace-repo.js';

export interface Organisation {
  row: OrganisationRow;
  /** The values as stored (what a PUT merges into). */
  stored: Settings;
  /** Stored values over the defaults. */
  settings: Settings;
}

export interface Workspace {
  row: WorkspaceRow;
  /** The overrides as stored. */
  overrides: Settings;
}

interface Snapshot {
  organisations: Map<string, Organisation>;
  /** The first organisation: what a caller without one (or `get()` without ids) means. */
  primary?: Organisation;
  byId: Map<string, Workspace>;
  /** `<organisation id>\n<slug>` → workspace */
  bySlug: Map<string, Workspace>;
}

export const WORKSPACES_TOPIC = 'workspaces';

const DEFAULT_VALUES = organisationValues({});
const EMPTY: Snapshot = { organisations: new Map(), byId: new Map(), bySlug: new Map() };

export class WorkspaceDirectory {
  #snapshot: Snapshot = EMPTY;
  /** Effective settings per workspace id ('' for organisation-level), rebuilt on load. */
  #effective = new Map<string, Settings>();
  #publish: (() => void) | undefined;

  constructor(
    private readonly repo: WorkspaceRepo,
    private readonly keys: KeyStore,
  ) {}

  /** Reloads when any instance writes an organisation, workspace or setting. */
  follow(changes: Changes, onError: (error: unknown) => void): void {
    changes.subscribe(WORKSPACES_TOPIC, () => void this.load().catch(onError));
    this.#publish = () => changes.publish(WORKSPACES_TOPIC);
  }

  /** A write through this instance: reload here (awaited), then tell every other. */
  async changed(): Promise<void> {
    await this.load();
    this.#publish?.();
  }

  async load(): Promise<void> {
    const [organisations, workspaces] = await Promise.all([this.repo.organisations(), this.repo.workspaces()]);
    const next: Snapshot = { organisations: new Map(), byId: new Map(), bySlug: new Map() };
    for (const row of organisations) {
      const stored = parseSettings(row.settings);
      const organisation = { row, stored, settings: organisationValues(stored) };
      next.organisations.set(row.id, organisation);
      next.primary ??= organisation;
    }
    for (const row of workspaces) {
      const workspace = { row, overrides: parseSettings(row.settings) };
      next.byId.set(row.id, workspace);
      next.bySlug.set(`${row.organisation_id}\n${row.slug}`, workspace);
    }
    for (const workspace of next.byId.values()) {
      this.keys.suspendWorkspace(workspace.row.id, workspace.row.status !== 'active');
    }
    this.#snapshot = next;
    this.#effective = new Map();
  }

  organisation(id?: string): Organisation | undefined {
    return id === undefined ? this.#snapshot.primary : this.#snapshot.organisations.get(id);
  }

  /** A workspace by id, or by slug within `organisationId` (any organisation when not given). */
  workspace(idOrSlug: string, organisationId?: string): Workspace | undefined {
    const snapshot = this.#snapshot;
    const byId = snapshot.byId.get(idOrSlug);
    if (byId) return organisationId === undefined || byId.row.organisation_id === organisationId ? byId : undefined;
    if (organisationId !== undefined) return snapshot.bySlug.get(`${organisationId}\n${idOrSlug}`);
    for (const organisation of snapshot.organisations.keys()) {
      const found = snapshot.bySlug.get(`${organisation}\n${idOrSlug}`);
      if (found) return found;
    }
    return undefined;
  }

  workspaces(organisationId: string): Workspace[] {
    return [...this.#snapshot.byId.values()].filter((w) => w.row.organisation_id === organisationId);
  }

  slugTaken(organisationId: string, slug: string): boolean {
    return this.#snapshot.bySlug.has(`${organisationId}\n${slug}`);
  }

  /** Effective settings: the organisation's (defaults under stored values), a workspace's overrides on top. */
  settings(workspaceId?: string, organisationId?: string): Settings {
    const workspace = workspaceId === undefined ? undefined : this.#snapshot.byId.get(workspaceId);
    const organisation = this.organisation(workspace?.row.organisation_id ?? organisationId);
    if (!organisation) return DEFAULT_VALUES;
    // Only known ids are memoised, so lookups of unknown ones cannot grow the map.
    const memoKey = workspace ? workspace.row.id : `org:${organisation.row.id}`;
    let value = this.#effective.get(memoKey);
    if (!value) {
      value = workspace ? effectiveValues(organisation.settings, workspace.overrides) : organisation.settings;
      this.#effective.set(memoKey, value);
    }
    return value;
  }
}
