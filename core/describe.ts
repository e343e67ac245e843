/**
 * What a booted gateway is made of: each hook in lifecycle order with its taps (plugin, stage),
 * each registry's entries and each plugin's services. `npm start -- --describe` prints it;
 * `GET /v1/gateway/plugins` answers it as JSON.
 */
import type { HookTaps, HookName, TapDescription } from './hook-taps.js';
import type { PluginManifest } from './plugin.js';
import type { Registries } from './registries.js';

export interface HookDescription {
  name: string;
  /** tapable's hook class: how taps combine (Series, Bail, Waterfall, Parallel). */
  kind: string;
  taps: TapDescription[];
}

export interface RegistryEntry {
  name: string;
  plugin: string;
}

export interface RouteDescription {
  method: string;
  path: string;
  /** Whether onRequest (key check, limits) runs before the handler. */
  protected: boolean;
}

export interface PluginDescription {
  id: string;
  description?: string;
  dependsOn: string[];
  provides: string[];
  requires: string[];
}

export interface GatewayDescription {
  hooks: HookDescription[];
  registries: {
    providers: RegistryEntry[];
    strategies: RegistryEntry[];
    checks: RegistryEntry[];
    cacheModes: RegistryEntry[];
    endpoints: RegistryEntry[];
    health: RegistryEntry[];
    routes: RouteDescription[];
  };
  plugins: PluginDescription[];
}

export function describeGateway(taps: HookTaps, registries: Registries, manifests: readonly PluginManifest[]): GatewayDescription {
  const hooks = (Object.keys(taps.hooks) as HookName[]).map((name) => ({
    name,
    kind: (taps.hooks[name] as { constructor: { name: string } }).constructor.name,
    taps: taps.describe(name),
  }));
  const routes = registries.routes
    .list()
    .map((r) => ({ method: r.method.toUpperCase(), path: r.path, protected: r.protected !== false }))
    .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  return {
    hooks,
    registries: {
      providers: registries.providers.entries(),
      strategies: registries.strategies.entries(),
      checks: registries.checks.entries(),
      cacheModes: registries.cacheModes.entries(),
      endpoints: registries.endpoints.entries(),
      health: registries.health.entries(),
      routes,
    },
    plugins: manifests.map((m) => ({
      id: m.id,
      ...(m.description ? { description: m.description } : {}),
      dependsOn: [...(m.dependsOn ?? [])],
      provides: (m.provides ?? []).map((key) => key.name),
      requires: (m.requires ?? []).map((key) => key.name),
    })),
  };
}

/** The description as text for a terminal: hooks, registries, plugins. */
export function formatDescription(d: GatewayDescription): string {
  const lines: string[] = [`gw: ${d.plugins.length} plugins`, '', 'hooks, in lifecycle order (taps in run order: plugin, stage)'];
  for (const hook of d.hooks) {
    lines.push(`  ${hook.name}  (${hook.kind})${hook.taps.length === 0 ? '  no taps' : ''}`);
    const width = Math.max(0, ...hook.taps.map((t) => t.plugin.length));
    for (const tap of hook.taps) lines.push(`    ${tap.plugin.padEnd(width)}  ${tap.stage}`);
  }
  lines.push('', 'registries');
  const { routes, ...named } = d.registries;
  for (const [kind, entries] of Object.entries(named)) {
    lines.push(`  ${kind} (${entries.length})`);
    for (const e of entries) lines.push(`    ${e.name}  (${e.plugin})`);
  }
  lines.push(`  routes (${routes.length})`);
  for (const r of routes) lines.push(`    ${r.method.padEnd(6)} ${r.path}${r.protected ? '' : '  (unprotected)'}`);
  lines.push('', 'plugins (in apply order: provides / requires services)');
  for (const p of d.plugins) {
    const services = [
      p.provides.length ? `provides ${p.provides.join(', ')}` : '',
      p.requires.length ? `requires ${p.requires.join(', ')}` : '',
      p.dependsOn.length ? `after ${p.dependsOn.join(', ')}` : '',
    ].filter(Boolean);
    lines.push(`  ${p.id}${services.length ? `  ${services.join('; ')}` : ''}`);
  }
  return lines.join('\n') + '\n';
}
