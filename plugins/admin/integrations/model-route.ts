/**
 * `model: "@slug/model"` (the model-catalogue form): the body's model names an integration and a
 * model in one field. The request is routed to that integration (`provider: "@slug"`, resolved
 * later like any other reference) and the provider sees the plain model.
 *
 * It counts as the request naming its route, so a default config (key or workspace) does not apply.
 * Config settings sent beside it (retry, timeouts, cache ... as `x-gw-*` headers or a config without
 * a route of its own) stay, beneath the integration. A config that routes by itself (a provider,
 * targets, a virtual key, or a stored config id) conflicts with it: 400, name one route.
 */
import { Errors, type RawConfig, type RequestContext } from '../../../core/index.js';

/** `@slug/model` split; undefined for any other model (a plain name, or one with a slash but no `@`). */
export function integrationModel(model: unknown): { slug: string; model: string } | undefined {
  if (typeof model !== 'string' || model.charCodeAt(0) !== 64 /* @ */) return undefined;
  const slash = model.indexOf('/');
  if (slash < 0) return undefined;
  return { slug: model.slice(1, slash), model: model.slice(slash + 1) };
}

const ROUTE_FIELDS = ['provider', 'targets', 'virtual_key'] as const;

/** The config with the body's integration as its provider, and the body with the plain model; the config as it was when the model names none. */
export function routeByModel(config: RawConfig, ctx: RequestContext): RawConfig {
  const named = integrationModel(ctx.body['model']);
  if (!named) return config;
  if (named.slug === '' || named.model === '') {
    throw Errors.invalidBody('model', 'must be "@<integration slug>/<model>" with both parts non-empty');
  }
  if (typeof config === 'string') {
    throw Errors.invalidBody('model', `names integration "@${named.slug}" but x-gw-config also names a stored config: name one route`);
  }
  const routing = config === undefined ? undefined : ROUTE_FIELDS.find((field) => config[field] !== undefined);
  if (routing !== undefined) {
    throw Errors.invalidBody('model', `names integration "@${named.slug}" but the request's config also routes it (config.${routing}): name one route`);
  }
  // ctx.body is the request's own object until here; a copy keeps the client's body as sent.
  ctx.body = { ...ctx.body, model: named.model };
  return { ...config, provider: `@${named.slug}` };
}
