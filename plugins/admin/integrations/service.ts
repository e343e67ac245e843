/**
 * The read-only service other plugins use (usage limits, models, logs), registered as
 * `Symbol.for('gw.Integrations')`. Answers from memory, synchronously; never exposes credentials.
 */
import type { Principal } from '../../../core/index.js';
import type { IntegrationCatalogue } from './catalogue.js';
import type { Integration } from './record.js';
import { allowedIn } from './resolve.js';

export const INTEGRATIONS_SERVICE = Symbol.for('gw.Integrations');

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

export interface IntegrationsService {
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

export function createService(catalogue: IntegrationCatalogue): IntegrationsService {
  const infos = new WeakMap<Integration, IntegrationInfo>();
  const info = (i: Integration): IntegrationInfo => {
    let known = infos.get(i);
    if (!known) {
      known = Object.freeze({
        id: i.id,
        slug: i.slug,
        default_provider_slug: i.providerSlug ?? null,
        name: i.name,
        provider: i.provider,
        organisation_id: i.organisationId,
        allow_all_workspaces: i.allowAllWorkspaces,
        allowed_workspaces: i.allowedWorkspaces,
        models: Object.freeze(i.models.map((m) => Object.freeze({
          slug: m.slug, enabled: m.enabled !== false, ...(m.configurations ? { custom_host: m.configurations.custom_host } : {}),
        }))),
        pricing_adjustments: i.pricing ?? null,
      });
      infos.set(i, known);
    }
    return known;
  };
  const find = (ref: string, organisationId = 'default') => {
    const name = ref.startsWith('@') ? ref.slice(1) : ref;
    const byId = catalogue.byId(name);
    return byId ?? catalogue.find(organisationId, name);
  };
  return Object.freeze({
    bySlug(slug: string, organisationId?: string) {
      const i = find(slug, organisationId);
      return i && info(i);
    },
    pricingMultiplier(slug: string, tokenClass: string, organisationId?: string) {
      const multiplier = find(slug, organisationId)?.pricing?.multiplier;
      if (typeof multiplier === 'number') return multiplier;
      return multiplier?.[tokenClass] ?? multiplier?.['default'] ?? 1;
    },
    forTarget(target: { readonly virtual_key?: unknown }) {
      const id = target.virtual_key;
      const i = typeof id === 'string' ? catalogue.byId(id) : undefined;
      return i && info(i);
    },
    visibleTo(principal: Principal | undefined) {
      const org = principal?.organisationId ?? 'default';
      return catalogue.list(org).filter((i) => allowedIn(i, principal?.workspaceId)).map(info);
    },
  });
}
