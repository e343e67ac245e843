/**
 * The route table. Static paths are one map lookup; patterns with `:param` segments are matched
 * segment by segment. Registration order does not matter: a static segment beats a parameter.
 * A path ending in `/*` (e.g. `/v1/*`) is a fallback: it serves what no other route knows below its
 * prefix (a path another route serves with other methods still answers 405), the longest prefix
 * first; the rest of the path is its `*` parameter, undecoded. Filled at boot, then frozen.
 */
import type { RouteDef } from './types.js';

export type RouteMatch =
  | { route: RouteDef; params: Record<string, string> }
  | { route?: undefined; allowed: string[] };

interface Pattern {
  segments: string[];
  byMethod: Map<string, RouteDef>;
}

export class Router {
  readonly #static = new Map<string, Map<string, RouteDef>>();
  readonly #patterns: Pattern[] = [];
  /** Fallbacks by prefix (with its trailing `/`), longest first. */
  readonly #fallbacks: Array<{ prefix: string; byMethod: Map<string, RouteDef> }> = [];
  #frozen = false;

  add(route: RouteDef): void {
    const method = route.method.toUpperCase();
    if (this.#frozen) {
      throw new Error(`route ${method} ${route.path} cannot be added: the gateway is already running; add routes at boot, in apply()`);
    }
    if (route.path.endsWith('/*')) {
      const prefix = route.path.slice(0, -1);
      if (prefix.includes('*') || prefix.includes('/:')) throw new Error(`route ${method} ${route.path}: a fallback path is a static prefix followed by /*`);
      let fallback = this.#fallbacks.find((f) => f.prefix === prefix);
      if (!fallback) {
        fallback = { prefix, byMethod: new Map() };
        this.#fallbacks.push(fallback);
        this.#fallbacks.sort((a, b) => b.prefix.length - a.prefix.length);
      }
      if (fallback.byMethod.has(method)) throw new Error(`route ${method} ${route.path} is registered twice`);
      fallback.byMethod.set(method, route);
      return;
    }
    if (!route.path.includes('/:')) {
      const byMethod = this.#static.get(route.path) ?? new Map<string, RouteDef>();
      if (byMethod.has(method)) throw new Error(`route ${method} ${route.path} is registered twice`);
      byMethod.set(method, route);
      this.#static.set(route.path, byMethod);
      return;
    }
    const segments = route.path.split('/');
    let pattern = this.#patterns.find((p) => p.segments.join('/') === segments.join('/'));
    if (!pattern) {
      pattern = { segments, byMethod: new Map() };
      this.#patterns.push(pattern);
      // Most specific first: fewer parameter segments wins.
      this.#patterns.sort((a, b) => paramCount(a.segments) - paramCount(b.segments));
    }
    if (pattern.byMethod.has(method)) throw new Error(`route ${method} ${route.path} is registered twice`);
    pattern.byMethod.set(method, route);
  }

  /** The route for a request, or the methods the path allows (empty when the path is unknown). */
  match(method: string, path: string): RouteMatch {
    const m = method.toUpperCase();
    const byMethod = this.#static.get(path);
    if (byMethod) {
      const route = byMethod.get(m);
      return route ? { route, params: {} } : { allowed: [...byMethod.keys()] };
    }
    const parts = path.split('/');
    let allowed: string[] = [];
    for (const pattern of this.#patterns) {
      const params = matchSegments(pattern.segments, parts);
      if (!params) continue;
      const route = pattern.byMethod.get(m);
      if (route) return { route, params };
      allowed = allowed.concat([...pattern.byMethod.keys()]);
    }
    if (allowed.length > 0) return { allowed };
    return this.#fallback(m, path);
  }

  #fallback(method: string, path: string): RouteMatch {
    for (const fallback of this.#fallbacks) {
      if (!path.startsWith(fallback.prefix) || path.length === fallback.prefix.length) continue;
      const route = fallback.byMethod.get(method);
      return route ? { route, params: { '*': path.slice(fallback.prefix.length) } } : { allowed: [...fallback.byMethod.keys()] };
    }
    return { allowed: [] };
  }

  /** Called once the gateway is booted: a later `add` throws. */
  freeze(): void {
    this.#frozen = true;
  }

  list(): RouteDef[] {
    const out: RouteDef[] = [];
    for (const byMethod of this.#static.values()) out.push(...byMethod.values());
    for (const p of this.#patterns) out.push(...p.byMethod.values());
    for (const f of this.#fallbacks) out.push(...f.byMethod.values());
    return out;
  }
}

function paramCount(segments: string[]): number {
  return segments.filter((s) => s.startsWith(':')).length;
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const seg = pattern[i]!;
    const part = parts[i]!;
    if (seg.startsWith(':')) {
      if (!part) return undefined;
      try {
        params[seg.slice(1)] = decodeURIComponent(part);
      } catch {
        return undefined;
      }
    } else if (seg !== part) {
      return undefined;
    }
  }
  return params;
}
