/**
 * The read-only service other plugins use (contract.ts: usage limits, models, logs). Answers from
 * memory, synchronously; never exposes credentials.
 */
import type { Principal } from '../../../core/index.js';
import type { IntegrationInfo, Integrations } from './contract.js';
import type { IntegrationCatalogue } from './catalogue.js';
import type { Integration } from './record.js';
import { allowedIn } from './resolve.js';

export function createService(catalogue: IntegrationCatalogue): Integrations {
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
