/**
 * JWT settings in the record store, held in memory (a row per organisation that uses them): the
 * per-request lookup by issuer never touches the store. A write reloads here and, through the
 * invalidation bus (topic `identity.jwt`), on every other instance; `refreshIntervalMs` bounds
 * staleness when no relay carries changes.
 */
import type { Changes, RecordStore } from '../../../core/index.js';
import type { JwtSettings } from './settings.js';

export const JWT_SETTINGS_TOPIC = 'identity.jwt';

interface Row {
  organisation_id: string;
  issuer: string;
  settings: string;
  created_at: string;
  last_updated_at: string;
}

type StoredFields = Pick<JwtSettings, 'audience' | 'jwksUri' | 'algorithms' | 'claims'>;

export class JwtSettingsStore {
  #byOrganisation = new Map<string, JwtSettings>();
  #byIssuer = new Map<string, JwtSettings[]>();
  /** Bumped on every reload: verifiers made for older settings are dropped. */
  #generation = 0;
  #publish: (() => void) | undefined;

  constructor(private readonly store: RecordStore) {}

  get generation(): number {
    return this.#generation;
  }

  follow(changes: Changes, onError: (error: unknown) => void): void {
    changes.subscribe(JWT_SETTINGS_TOPIC, () => void this.load().catch(onError));
    this.#publish = () => changes.publish(JWT_SETTINGS_TOPIC);
  }

  async load(): Promise<void> {
    const rows = await this.store.all<Row>('SELECT organisation_id, issuer, settings, created_at, last_updated_at FROM jwt_identity_settings ORDER BY created_at, organisation_id');
    const byOrganisation = new Map<string, JwtSettings>();
    const byIssuer = new Map<string, JwtSettings[]>();
    for (const row of rows) {
      const stored = JSON.parse(row.settings) as StoredFields;
      const settings: JwtSettings = Object.freeze({
        organisationId: row.organisation_id, issuer: row.issuer, ...stored, createdAt: row.created_at, lastUpdatedAt: row.last_updated_at,
      });
      byOrganisation.set(row.organisation_id, settings);
      const same = byIssuer.get(row.issuer);
      if (same) same.push(settings);
      else byIssuer.set(row.issuer, [settings]);
    }
    this.#byOrganisation = byOrganisation;
    this.#byIssuer = byIssuer;
    this.#generation++;
  }

  of(organisationId: string): JwtSettings | undefined {
    return this.#byOrganisation.get(organisationId);
  }

  /** The organisations accepting tokens of `issuer` (several when they share an identity provider). */
  forIssuer(issuer: string): readonly JwtSettings[] {
    return this.#byIssuer.get(issuer) ?? [];
  }

  async put(settings: Omit<JwtSettings, 'createdAt' | 'lastUpdatedAt'>, now: string): Promise<JwtSettings> {
    const stored: StoredFields = { audience: settings.audience, jwksUri: settings.jwksUri, algorithms: settings.algorithms, claims: settings.claims };
    const text = JSON.stringify(stored);
    const update = () => this.store.run(
      'UPDATE jwt_identity_settings SET issuer = ?, settings = ?, last_updated_at = ? WHERE organisation_id = ?',
      [settings.issuer, text, now, settings.organisationId],
    );
    if ((await update()).changes === 0) {
      await this.store.run(
        'INSERT INTO jwt_identity_settings (organisation_id, issuer, settings, created_at, last_updated_at) VALUES (?, ?, ?, ?, ?)',
        [settings.organisationId, settings.issuer, text, now, now],
      // Another PUT for the organisation inserted first: this one replaces it.
      ).catch(async (e: unknown) => {
        if ((await update()).changes === 0) throw e;
      });
    }
    await this.#changed();
    return this.of(settings.organisationId)!;
  }

  async delete(organisationId: string): Promise<boolean> {
    const { changes } = await this.store.run('DELETE FROM jwt_identity_settings WHERE organisation_id = ?', [organisationId]);
    await this.#changed();
    return changes > 0;
  }

  async #changed(): Promise<void> {
    await this.load();
    this.#publish?.();
  }
}
