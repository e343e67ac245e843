/**
 * Who may call SCIM: a gateway key holding `scim.read` / `scim.write` (both granted by `scim.*`),
 * organisation-wide (SCIM provisions the whole organisation). Identity providers send the key as
 * `Authorization: Bearer <key>`: on /v1/scim/ paths only, and only when no `x-gw-api-key` is sent,
 * the bearer tap verifies it with the key store before auth.api-key runs. Other routes' Authorization
 * header (a provider credential) is never read here.
 */
import {
  Errors, isOrganisationLevel, requireScope, Stage, type KeyStore, type PluginApi, type RequestContext,
} from '../../../core/index.js';

export const SCIM_PREFIX = '/v1/scim/';

export function tapBearerKeys(api: PluginApi<unknown>, keys: KeyStore): void {
  api.hooks.onRequest.tapPromise({ name: api.id, stage: Stage.BEFORE_AUTH }, async (ctx) => {
    if (ctx.principal || !ctx.request.path.startsWith(SCIM_PREFIX)) return;
    const headers = ctx.request.headers;
    if (headers['x-gw-api-key']) return;
    const authorization = headers['authorization'];
    if (!authorization) throw Errors.unauthorized('missing key: send Authorization: Bearer <key> or x-gw-api-key');
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    if (!match) throw Errors.unauthorized('Authorization: must be "Bearer <key>"');
    const principal = await keys.verify(match[1]!);
    if (!principal) throw Errors.unauthorized('unknown, expired, deleted or rotated-out key in Authorization: Bearer');
    ctx.principal = principal;
  });
}

/** The caller's organisation, once its key is allowed to `access` SCIM. */
export function scimCaller(ctx: RequestContext, access: 'read' | 'write'): { organisationId: string; ownerKey: boolean } {
  const principal = requireScope(ctx, `scim.${access}`);
  if (!isOrganisationLevel(principal)) throw Errors.forbidden('SCIM provisions the organisation: use an organisation-level key, not a workspace key');
  if (principal.organisationId === undefined) throw Errors.forbidden('the API key belongs to no organisation');
  return { organisationId: principal.organisationId, ownerKey: principal.type === 'organisation-owner' };
}
