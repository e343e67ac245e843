/**
 * The row a create or an update writes: names checked, content checked (a routable target),
 * workspaces resolved, secret fields sealed (bound to the integration id) with their masks beside
 * them. An update keeps stored secrets it does not replace, including those sent back as masks.
 */
import { Errors, type ConfigKeys, type Principal, type SecretBox } from '../../../core/index.js';
import type { ControlPlaneServices } from './access.js';
import type { IntegrationCatalogue } from './catalogue.js';
import { integrationUnusable, sealContext } from './credentials.js';
import { isMask, isSecretConfigurationField, mask } from './fields.js';
import type { Integration, IntegrationRow, SecretPart } from './record.js';
import type { CreateInput, UpdateInput } from './schemas.js';
import { checkConfigurations, checkProviderTarget, checkSecretMappings, type ContentRules } from './validate.js';

export interface RowDeps {
  catalogue: IntegrationCatalogue;
  box: SecretBox;
  services: ControlPlaneServices;
  rules: ContentRules;
}

export function checkNames(catalogue: IntegrationCatalogue, org: string, slug: string, providerSlug: string | undefined, exceptId?: string): void {
  if (catalogue.slugTaken(org, slug, exceptId)) throw Errors.invalidBody('slug', `"${slug}" is taken by another integration`);
  if (providerSlug !== undefined && providerSlug !== slug && catalogue.slugTaken(org, providerSlug, exceptId)) {
    throw Errors.invalidBody('default_provider_slug', `"${providerSlug}" is taken by another integration`);
  }
}

export function checkContent(
  provider: string, key: string | undefined, configurations: Record<string, unknown>,
  mappings: NonNullable<CreateInput['secret_mappings']>, rules: ContentRules, organisationId: string,
): void {
  checkConfigurations(configurations, rules.configKeys);
  checkSecretMappings(mappings, rules, organisationId);
  checkProviderTarget(provider, key, configurations, mappings, rules);
}

/**
 * Where an integration may be used. A workspace key's integrations are limited to its workspace;
 * an organisation key's default is every workspace. Workspace slugs become ids when the directory
 * service is there.
 */
export async function workspacesFor(
  principal: Principal, allowAll: boolean | undefined, allowed: string[] | undefined, services: ControlPlaneServices,
): Promise<Pick<IntegrationRow, 'allow_all_workspaces' | 'allowed_workspaces'>> {
  const own = principal.workspaceId;
  if (own !== undefined) {
    if (allowAll === true || (allowed !== undefined && (allowed.length !== 1 || allowed[0] !== own))) {
      throw Errors.forbidden(`a workspace key can only make integrations for its own workspace (${own})`);
    }
    return { allow_all_workspaces: 0, allowed_workspaces: JSON.stringify([own]) };
  }
  const all = allowAll ?? (allowed === undefined);
  if (all && allowed !== undefined && allowed.length > 0) {
    throw Errors.invalidBody('allowed_workspaces', 'cannot be combined with allow_all_workspaces: true');
  }
  const ids: string[] = [];
  const directory = services.directory;
  for (const [i, ref] of (allowed ?? []).entries()) {
    const ws = directory ? await directory.workspace(ref, principal.organisationId) : { id: ref, organisation_id: principal.organisationId };
    if (!ws || (principal.organisationId !== undefined && ws.organisation_id !== principal.organisationId)) {
      throw Errors.invalidBody(`allowed_workspaces.${i}`, `unknown workspace "${ref}"`);
    }
    if (!ids.includes(ws.id)) ids.push(ws.id);
  }
  return { allow_all_workspaces: all ? 1 : 0, allowed_workspaces: JSON.stringify(ids) };
}

/** The credential columns: secret fields sealed (bound to the integration id), masks beside them. */
export function sealed(box: SecretBox, keys: ConfigKeys, id: string, key: string | undefined, configurations: Record<string, unknown>) {
  const plain: Record<string, unknown> = {};
  const secret: Record<string, unknown> = {};
  const masks: Record<string, string> = {};
  for (const field in configurations) {
    if (isSecretConfigurationField(keys, field)) {
      secret[field] = configurations[field];
      masks[field] = mask(configurations[field]);
    } else {
      plain[field] = configurations[field];
    }
  }
  const part: SecretPart = {};
  if (key !== undefined) part.key = key;
  if (Object.keys(secret).length > 0) part.configurations = secret;
  const hasSecret = part.key !== undefined || part.configurations !== undefined;
  return {
    configurations: JSON.stringify(plain),
    credentials: hasSecret ? box.encrypt(JSON.stringify(part), sealContext(id)) : null,
    masks: JSON.stringify({ ...(key !== undefined ? { key: mask(key) } : {}), configurations: masks }),
  };
}

export function rowOf(i: Integration): IntegrationRow {
  return {
    id: i.id, organisation_id: i.organisationId, slug: i.slug, provider_slug: i.providerSlug ?? null, name: i.name,
    description: i.description ?? null, provider: i.provider, configurations: JSON.stringify(i.configurations),
    credentials: i.sealed ?? null, masks: JSON.stringify(i.masks), allow_all_workspaces: i.allowAllWorkspaces ? 1 : 0,
    allowed_workspaces: JSON.stringify(i.allowedWorkspaces), models: JSON.stringify(i.models),
    pricing_adjustments: i.pricing ? JSON.stringify(i.pricing) : null, secret_mappings: JSON.stringify(i.secretMappings),
    revision: i.revision, created_at: i.createdAt, last_updated_at: i.lastUpdatedAt,
  };
}

/** The stored secret part, opened (only when an update keeps some of it). */
export function openSecret(box: SecretBox, i: Integration): SecretPart {
  if (i.sealed === undefined) return {};
  try {
    return JSON.parse(box.decrypt(i.sealed, sealContext(i.id))) as SecretPart;
  } catch {
    throw integrationUnusable(`integration "${i.slug}" cannot be opened with this gateway's secret key: send key and every secret configuration field again`);
  }
}

export async function updatedRow(current: Integration, body: UpdateInput, principal: Principal, deps: RowDeps): Promise<IntegrationRow> {
  const row = rowOf(current);
  const org = current.organisationId;
  const slug = body.slug ?? current.slug;
  const wantsProvider = body.create_default_provider ?? (current.providerSlug !== undefined || body.default_provider_slug !== undefined);
  const providerSlug = wantsProvider ? body.default_provider_slug ?? (current.providerSlug === current.slug ? slug : current.providerSlug ?? slug) : undefined;
  checkNames(deps.catalogue, org, slug, providerSlug, current.id);
  Object.assign(row, { slug, provider_slug: providerSlug ?? null });
  if (body.name !== undefined) row.name = body.name;
  if (body.description !== undefined) row.description = body.description;
  if (body.provider !== undefined) row.provider = body.provider;
  if (body.allow_all_workspaces !== undefined || body.allowed_workspaces !== undefined) {
    const allowAll = body.allow_all_workspaces ?? (body.allowed_workspaces !== undefined ? false : current.allowAllWorkspaces);
    Object.assign(row, await workspacesFor(principal, allowAll, body.allowed_workspaces ?? (allowAll ? undefined : [...current.allowedWorkspaces]), deps.services));
  }
  if (body.models !== undefined) row.models = JSON.stringify(body.models);
  if (body.pricing_adjustments !== undefined) row.pricing_adjustments = JSON.stringify(body.pricing_adjustments);
  if (body.secret_mappings !== undefined) row.secret_mappings = JSON.stringify(body.secret_mappings);

  const touchesSecrets = body.key !== undefined || body.configurations !== undefined;
  if (touchesSecrets || body.provider !== undefined || body.secret_mappings !== undefined) {
    // The result must still make a routable target: checked with the secrets it keeps.
    const { key, configurations } = secretsKept(current, body, deps.box);
    checkContent(row.provider, key, configurations, JSON.parse(row.secret_mappings), deps.rules, org);
    if (touchesSecrets) Object.assign(row, sealed(deps.box, deps.rules.configKeys, current.id, key, configurations));
  }
  return row;
}

/** Key and configurations after an update; a value equal to its mask (a GET → PUT round trip) keeps the stored secret. */
export function secretsKept(current: Integration, body: UpdateInput, box: SecretBox): { key: string | undefined; configurations: Record<string, unknown> } {
  let opened: SecretPart | undefined;
  const secret = () => (opened ??= openSecret(box, current));
  const key = body.key === undefined || isMask(body.key, current.masks.key) ? (current.masks.key !== undefined ? secret().key : undefined) : body.key;
  if (body.configurations === undefined) {
    const hasSecrets = Object.keys(current.masks.configurations).length > 0;
    return { key, configurations: { ...current.configurations, ...(hasSecrets ? secret().configurations : {}) } };
  }
  const configurations: Record<string, unknown> = {};
  const given = body.configurations as Record<string, unknown>;
  for (const field in given) {
    const shown = current.masks.configurations[field];
    configurations[field] = shown !== undefined && isMask(given[field], shown) ? secret().configurations?.[field] : given[field];
  }
  return { key, configurations };
}
