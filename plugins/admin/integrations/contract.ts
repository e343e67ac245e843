/**
 * The services of admin.integrations as other plugins use them (usage limits, models, logs):
 * import this file (the keys, or the types) and nothing else of the family.
 */
import { serviceKey, type Principal } from '../../../core/index.js';

export interface IntegrationModelInfo {
  slug: string;
  enabled: boolean;
  custom_host?: string;
}

/** An integration without its credentials. */
export interface IntegrationInfo {
  id: string;
  slug: string;
  default_provider_slug: string | null;
  name: string;
  provider: string;
  organisation_id: string;
  allow_all_workspaces: boolean;
  allowed_workspaces: readonly string[];
  models: readonly IntegrationModelInfo[];
  pricing_adjustments: { multiplier: number | Record<string, number> } | null;
}

/** Integrations without credentials, answered from memory, synchronously. */
export interface Integrations {
  /** By `@slug`, slug, default-provider slug or id; organisation `default` unless given. */
  bySlug(slug: string, organisationId?: string): IntegrationInfo | undefined;
  /**
   * The price multiplier of a token class (`input`, `output`, `cached_input` ...): the class's own,
   * else `default`, else a single number for every class, else 1.
   */
  pricingMultiplier(slug: string, tokenClass: string, organisationId?: string): number;
  /** The integration a routed target came from (resolved targets carry `virtual_key: <id>`). */
  forTarget(target: { readonly virtual_key?: unknown }): IntegrationInfo | undefined;
  /** The integrations a caller may use (its organisation, allowed in its workspace). */
  visibleTo(principal: Principal | undefined): IntegrationInfo[];
}

export const IntegrationsService = serviceKey<Integrations>('integrations');
