/**
 * One fuzz input: a route of the running gateway with its path parameters, query, headers and
 * body, drawn from valid seeds and mutated. Everything it may send is kept on loopback.
 */
import type { RouteDef } from '../../core/index.js';
import type { Random } from './random.js';
import { headerValue, keepLocal } from './safety.js';
import { bodySeeds, configSeeds, QUERY_SEEDS } from './seeds.js';
import { DEEP, mutate, randomString, randomValue, toJson } from './values.js';

export interface FuzzInput {
  method: string;
  /** The route as registered, for reports. */
  route: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface InputContext {
  base: string;
  apiKey: string;
  /** Loopback base URLs a provider may be pointed at: the mock provider, and a closed port. */
  hosts: readonly string[];
  /** Ids seen in answers, so that read, update and delete routes also meet real records. */
  knownIds: string[];
  routes: readonly RouteDef[];
}

const ODD_HEADERS = [
  'x-gw-trace-id', 'x-gw-span-id', 'x-gw-parent-span-id', 'x-gw-span-name', 'x-gw-metadata', 'x-gw-cache-force-refresh',
  'x-gw-cache-namespace', 'x-gw-request-timeout', 'x-gw-forward-headers', 'x-gw-retry-count', 'x-gw-strict-open-ai-compliance',
  'content-type', 'accept', 'content-encoding', 'x-team',
];

/** Non-ASCII as \u escapes: valid JSON that fits in a header. */
const asciiJson = (text: string) => text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export function makeInput(rng: Random, ctx: InputContext): FuzzInput {
  const route = rng.pick(ctx.routes);
  const path = route.path.split('/').map((segment) => (segment.startsWith(':') ? pathParam(rng, ctx) : segment)).join('/');
  const query = rng.chance(0.3) ? new URLSearchParams(rng.pick(QUERY_SEEDS)).toString() : '';
  const headers = requestHeaders(rng, ctx);
  const input: FuzzInput = { method: route.method, route: `${route.method} ${route.path}`, url: `${ctx.base}${path}${query ? `?${query}` : ''}`, headers };
  if (route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH') {
    input.body = requestBody(rng, ctx, route);
    if (route.body === 'stream' && rng.chance(0.7)) headers['content-type'] = rng.pick(['multipart/form-data; boundary=x', 'multipart/form-data', 'application/octet-stream']);
    else if (!('content-type' in headers)) headers['content-type'] = 'application/json';
  }
  return input;
}

function pathParam(rng: Random, ctx: InputContext): string {
  if (ctx.knownIds.length > 0 && rng.chance(0.5)) return encodeURIComponent(rng.pick(ctx.knownIds));
  try {
    return encodeURIComponent(randomString(rng)) || 'x';
  } catch {
    return 'x'; // a lone surrogate has no URL form
  }
}

function requestHeaders(rng: Random, ctx: InputContext): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!rng.chance(0.04)) headers['x-gw-api-key'] = rng.chance(0.97) ? ctx.apiKey : headerValue(randomString(rng));
  const mode = rng.int(0, 9);
  if (mode < 4) {
    headers['x-gw-provider'] = 'openai';
    headers['authorization'] = 'Bearer sk-fuzz';
    headers['x-gw-custom-host'] = rng.pick(ctx.hosts);
  } else if (mode < 9) {
    let config: unknown = rng.pick(configSeeds(rng.pick(ctx.hosts)));
    for (let i = rng.int(0, 3); i > 0; i--) config = mutate(rng, config);
    headers['x-gw-config'] = asciiJson(toJson(rng, keepLocal(config, ctx.hosts, (items) => rng.pick(items))));
  } else {
    headers['x-gw-config'] = headerValue(rng.pick(['cfg', 'nope', '@cfg', randomString(rng)]));
  }
  for (let i = rng.chance(0.4) ? rng.int(1, 3) : 0; i > 0; i--) {
    const name = rng.pick(ODD_HEADERS);
    const value = rng.chance(0.3) ? asciiJson(toJson(rng, randomValue(rng))) : randomString(rng);
    headers[name] = headerValue(value);
  }
  return headers;
}

function requestBody(rng: Random, ctx: InputContext, route: RouteDef): string {
  const roll = rng.next();
  if (roll < 0.04) return '';
  if (roll < 0.08) return randomString(rng);
  if (roll < 0.12) return '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}'; // cut short
  if (roll < 0.15) return toJson(rng, DEEP);
  let body: unknown = rng.pick(bodySeeds(route.path, rng.pick(ctx.hosts)));
  for (let i = rng.chance(0.15) ? 0 : rng.int(1, 3); i > 0; i--) body = mutate(rng, body);
  return toJson(rng, keepLocal(body, ctx.hosts, (items) => rng.pick(items)));
}
