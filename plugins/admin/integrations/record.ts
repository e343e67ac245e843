/**
 * An integration as the gateway holds it in memory: public fields, the sealed credentials
 * (opened on first use) and the masks shown instead of them. Rows of the `integrations` table
 * map one to one onto it; a changed row gives a new object (caches are keyed by object).
 */
import type { ModelInput, PricingInput, SecretMappingInput } from './schemas.js';

export interface Integration {
  readonly id: string;
  readonly organisationId: string;
  readonly slug: string;
  /** The default provider's slug (create_default_provider), another name requests may use. */
  readonly providerSlug: string | undefined;
  readonly name: string;
  readonly description: string | undefined;
  readonly provider: string;
  /** Non-secret configuration fields (custom_host, regions, deployments ...). */
  readonly configurations: Readonly<Record<string, unknown>>;
  /** `v1:...` sealed JSON of {key?, configurations?} (secret fields only), or undefined when there are none. */
  readonly sealed: string | undefined;
  /** What answers show for `key` and each secret configuration field. */
  readonly masks: Readonly<{ key?: string; configurations: Readonly<Record<string, string>> }>;
  readonly allowAllWorkspaces: boolean;
  readonly allowedWorkspaces: readonly string[];
  readonly allowedSet: ReadonlySet<string>;
  readonly models: readonly ModelInput[];
  /** Model name → custom_host of that model. */
  readonly modelHosts: ReadonlyMap<string, string>;
  readonly pricing: PricingInput | undefined;
  readonly secretMappings: readonly SecretMappingInput[];
  /** Incremented on every update: a cached object with the same revision is current. */
  readonly revision: number;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
}

/** The secret part, as sealed. */
export interface SecretPart {
  key?: string;
  configurations?: Record<string, unknown>;
}

export interface IntegrationRow {
  id: string;
  organisation_id: string;
  slug: string;
  provider_slug: string | null;
  name: string;
  description: string | null;
  provider: string;
  configurations: string;
  credentials: string | null;
  masks: string;
  allow_all_workspaces: number;
  allowed_workspaces: string;
  models: string;
  pricing_adjustments: string | null;
  secret_mappings: string;
  revision: number;
  created_at: string;
  last_updated_at: string;
}

export function fromRow(row: IntegrationRow): Integration {
  const models = JSON.parse(row.models) as ModelInput[];
  const allowed = JSON.parse(row.allowed_workspaces) as string[];
  const modelHosts = new Map<string, string>();
  for (const m of models) if (m.configurations?.custom_host) modelHosts.set(m.slug, m.configurations.custom_host);
  return Object.freeze({
    id: row.id,
    organisationId: row.organisation_id,
    slug: row.slug,
    providerSlug: row.provider_slug ?? undefined,
    name: row.name,
    description: row.description ?? undefined,
    provider: row.provider,
    configurations: Object.freeze(JSON.parse(row.configurations) as Record<string, unknown>),
    sealed: row.credentials ?? undefined,
    masks: Object.freeze(JSON.parse(row.masks) as Integration['masks']),
    allowAllWorkspaces: row.allow_all_workspaces === 1,
    allowedWorkspaces: Object.freeze(allowed),
    allowedSet: new Set(allowed),
    models: Object.freeze(models),
    modelHosts,
    pricing: row.pricing_adjustments ? JSON.parse(row.pricing_adjustments) as PricingInput : undefined,
    secretMappings: Object.freeze(JSON.parse(row.secret_mappings) as SecretMappingInput[]),
    revision: Number(row.revision),
    createdAt: row.created_at,
    lastUpdatedAt: row.last_updated_at,
  });
}

/** The record as answers show it: credentials masked, never in full. */
export function toJson(i: Integration): Record<string, unknown> {
  const configurations: Record<string, unknown> = { ...i.configurations, ...i.masks.configurations };
  return {
    id: i.id,
    object: 'integration',
    slug: i.slug,
    name: i.name,
    description: i.description ?? null,
    provider: i.provider,
    key: i.masks.key ?? null,
    configurations,
    organisation_id: i.organisationId,
    allow_all_workspaces: i.allowAllWorkspaces,
    allowed_workspaces: i.allowedWorkspaces,
    create_default_provider: i.providerSlug !== undefined,
    default_provider_slug: i.providerSlug ?? null,
    models: i.models,
    pricing_adjustments: i.pricing ?? null,
    secret_mappings: i.secretMappings,
    status: 'active',
    created_at: i.createdAt,
    last_updated_at: i.lastUpdatedAt,
    last_reset_at: null,
  };
}
