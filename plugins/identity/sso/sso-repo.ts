/** Organisations' OpenID providers and email domains in the record store (portable SQL). */
import type { RecordStore } from '../../../core/index.js';
import { parentDomains } from './domains.js';

export interface ProviderRow {
  organisation_id: string;
  issuer: string;
  client_id: string;
  /** Sealed with the secret box (context: the organisation id); null for a public client. */
  client_secret: string | null;
  created_at: number;
  updated_at: number;
}

export interface DomainRow {
  domain: string;
  organisation_id: string;
  allow_subdomains: number;
  created_at: number;
}

const PROVIDER_COLUMNS = 'organisation_id, issuer, client_id, client_secret, created_at, updated_at';
const DOMAIN_COLUMNS = 'domain, organisation_id, allow_subdomains, created_at';

export class SsoRepo {
  constructor(private readonly store: RecordStore) {}

  provider(organisationId: string): Promise<ProviderRow | undefined> {
    return this.store.get<ProviderRow>(`SELECT ${PROVIDER_COLUMNS} FROM sso_providers WHERE organisation_id = ?`, [organisationId]);
  }

  async putProvider(row: ProviderRow): Promise<void> {
    await this.store.run(
      `INSERT INTO sso_providers (${PROVIDER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) `
      + 'ON CONFLICT (organisation_id) DO UPDATE SET issuer = excluded.issuer, client_id = excluded.client_id, '
      + 'client_secret = excluded.client_secret, updated_at = excluded.updated_at',
      [row.organisation_id, row.issuer, row.client_id, row.client_secret, row.created_at, row.updated_at],
    );
  }

  async deleteProvider(organisationId: string): Promise<boolean> {
    return (await this.store.run('DELETE FROM sso_providers WHERE organisation_id = ?', [organisationId])).changes > 0;
  }

  domains(organisationId: string): Promise<DomainRow[]> {
    return this.store.all<DomainRow>(`SELECT ${DOMAIN_COLUMNS} FROM sso_domains WHERE organisation_id = ? ORDER BY domain`, [organisationId]);
  }

  domain(domain: string): Promise<DomainRow | undefined> {
    return this.store.get<DomainRow>(`SELECT ${DOMAIN_COLUMNS} FROM sso_domains WHERE domain = ?`, [domain]);
  }

  /** Registered domains below `domain` (`*.example.com`). Domain names hold no LIKE wildcards. */
  subdomainsOf(domain: string): Promise<DomainRow[]> {
    return this.store.all<DomainRow>(`SELECT ${DOMAIN_COLUMNS} FROM sso_domains WHERE domain LIKE ?`, [`%.${domain}`]);
  }

  async insertDomain(row: DomainRow): Promise<void> {
    await this.store.run(`INSERT INTO sso_domains (${DOMAIN_COLUMNS}) VALUES (?, ?, ?, ?)`, [row.domain, row.organisation_id, row.allow_subdomains, row.created_at]);
  }

  async deleteDomain(organisationId: string, domain: string): Promise<boolean> {
    return (await this.store.run('DELETE FROM sso_domains WHERE organisation_id = ? AND domain = ?', [organisationId, domain])).changes > 0;
  }

  /** The domain row that covers an email's domain: itself, else the nearest parent allowing subdomains. */
  async covering(domain: string): Promise<DomainRow | undefined> {
    const exact = await this.domain(domain);
    if (exact) return exact;
    for (const parent of parentDomains(domain)) {
      const row = await this.domain(parent);
      if (row && row.allow_subdomains === 1) return row;
    }
    return undefined;
  }
}
