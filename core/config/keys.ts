/**
 * The route config of spec §2.1 as this gateway's plugins make it: assembled once at boot from
 * the structural core keys (core-keys.ts) and every loaded plugin's manifest `config`, compiled
 * then, and used for every config the gateway meets (request headers, stored and default configs).
 *
 * How `check` works: each node of the target tree is checked key by key with one compiled
 * validator per key (a node carries a few of many keys; one whole-object check would probe them
 * all), or by the owning plugin's own value check; then, when the types are right, the rules
 * across keys (each plugin's, then the strategy's); then the walk goes down into `targets`.
 * Last, the key groups of the root. A valid config allocates little more than the returned array.
 */
import { Type, compile, type Issue, type TSchema, type Validator } from '../schema.js';
import type { ConfigReport, ConfigRuleContext, PluginConfig } from '../plugin.js';
import type { Registries } from '../registries.js';
import type { MissingPluginHints } from '../missing-plugin.js';
import { CORE_CONFIG, CORE_OWNER, propertiesOf } from './core-keys.js';
import { fieldKindOf, type ConfigFieldKind } from './fields.js';
import { describeGroups, type GroupMessages } from './key-groups.js';

/** A plugin's `config`, with the plugin that declared it. */
export interface ConfigContribution {
  readonly plugin: string;
  readonly config: PluginConfig;
}

export interface HeaderField {
  readonly field: string;
  readonly kind: ConfigFieldKind;
}

type Node = Record<string, unknown>;
type ValueCheck = (value: unknown, report: ConfigReport) => void;

const STRUCTURAL = ['targets', 'strategy'] as const;
const AnyObject = Type.Object({});

export class ConfigKeys {
  /** The whole assembled shape, recursive over `targets` (docs, other validators); rules across keys are in `check` only. */
  readonly schema: TSchema;
  /** Every key a node may carry, in assembly order. */
  readonly keys: readonly string[];
  /** Keys bound to their provider (not inherited across providers; they identify the upstream). */
  readonly credentialKeys: readonly string[];
  /** Credentials that are secrets (masked, sealed, never stored in a config). */
  readonly secretKeys: readonly string[];
  /** `x-gw-<field>` header name → the key it sets and its wire kind. */
  readonly headerFields: ReadonlyMap<string, HeaderField>;

  readonly #fields = new Map<string, Validator<unknown>>();
  readonly #values = new Map<string, ValueCheck>();
  readonly #owners = new Map<string, string>();
  /** Plugins with rules across keys, and the keys that make a node theirs. */
  readonly #rules: { readonly config: PluginConfig; readonly on: readonly string[] }[] = [];
  readonly #credentials: ReadonlySet<string>;
  readonly #secrets: ReadonlySet<string>;
  readonly #nodeOnly: ReadonlySet<string>;
  readonly #groups: (readonly string[])[] = [];
  readonly #groupMessages: GroupMessages;
  readonly #context: ConfigRuleContext;
  readonly #hints: MissingPluginHints;
  #hintedHeaders?: Map<string, string>;

  constructor(contributions: readonly ConfigContribution[], registries: Registries, hints: MissingPluginHints = {}) {
    this.#hints = hints;
    this.#context = Object.freeze({ registries, pluginFor: (registry: keyof Registries, name: string) => hints.registryEntries?.[registry]?.[name] });
    const all = [{ plugin: CORE_OWNER, config: CORE_CONFIG }, ...contributions];
    const properties: Record<string, TSchema> = {};
    const strategyProperties: Record<string, TSchema> = {};
    const credentials = new Set<string>();
    const secrets = new Set<string>();
    const nodeOnly = new Set<string>(STRUCTURAL);
    const headers = new Map<string, HeaderField>();
    for (const { plugin, config } of all) {
      const own = propertiesOf(config.keys);
      for (const key in own) {
        this.#claim(key, plugin);
        properties[key] = own[key]!;
      }
      const strategyOwn = propertiesOf(config.strategy);
      for (const key in strategyOwn) {
        if (key === 'mode') throw new Error(`plugin "${plugin}" declares strategy.mode, which is the kernel's`);
        this.#claim(`strategy.${key}`, plugin);
        strategyProperties[key] = strategyOwn[key]!;
      }
      const owned = (list: readonly string[] | undefined, what: string) => {
        for (const key of list ?? []) if (!(key in own)) throw new Error(`plugin "${plugin}" lists ${JSON.stringify(key)} in config.${what} but not in config.keys`);
        return list ?? [];
      };
      for (const key of owned(config.credentials, 'credentials')) credentials.add(key);
      for (const key of owned(config.secrets, 'secrets')) secrets.add(key);
      for (const key of owned(config.nodeOnly, 'nodeOnly')) nodeOnly.add(key);
      for (const key of config.headers === true ? Object.keys(own) : owned(config.headers, 'headers')) {
        headers.set(headerNameOf(key), { field: key, kind: fieldKindOf(own[key]!) });
      }
      for (const [key, check] of Object.entries(config.values ?? {})) this.#values.set(key, check);
      for (const group of config.groups ?? []) this.#groups.push(group);
      if (config.rules) this.#rules.push({ config, on: config.strategy ? [...Object.keys(own), 'strategy'] : Object.keys(own) });
    }
    for (const key in properties) this.#fields.set(key, compile(properties[key]!));
    const strategy = Type.Object({ mode: Type.String(), ...optional(strategyProperties) }, { additionalProperties: false });
    this.#fields.set('strategy', compile(strategy));
    this.#fields.set('targets', compile(Type.Array(AnyObject, { minItems: 1 })));
    this.schema = Type.Recursive((Self) => Type.Object({
      ...optional(properties),
      strategy: Type.Optional(strategy),
      targets: Type.Optional(Type.Array(Self, { minItems: 1 })),
    }, { additionalProperties: false }), { $id: 'GatewayConfig' });
    this.keys = Object.freeze([...Object.keys(properties), ...STRUCTURAL]);
    this.#credentials = credentials;
    this.#secrets = secrets;
    this.#nodeOnly = nodeOnly;
    this.credentialKeys = Object.freeze([...credentials]);
    this.secretKeys = Object.freeze([...secrets]);
    this.headerFields = headers;
    this.#groupMessages = describeGroups(this.#groups);
  }

  isCredential(key: string): boolean {
    return this.#credentials.has(key);
  }

  isSecret(key: string): boolean {
    return this.#secrets.has(key);
  }

  /** Keys that place a node in its tree and are never inherited by its children. */
  isNodeOnly(key: string): boolean {
    return this.#nodeOnly.has(key);
  }

  /** Each key (`retry`, `strategy.conditions`) and the plugin that owns it (`core` for the structural keys). */
  owners(): Record<string, string> {
    return Object.fromEntries(this.#owners);
  }

  /** The plugin to load for an `x-gw-<field>` header no loaded plugin reads, if the host knows one. */
  pluginForHeader(header: string): string | undefined {
    const keys = this.#hints.configKeys;
    if (!keys) return undefined;
    this.#hintedHeaders ??= new Map(Object.keys(keys).filter((k) => !k.includes('.')).map((k) => [headerNameOf(k), keys[k]!]));
    return this.#hintedHeaders.get(header);
  }

  /** Every issue of a route config (empty when valid); the kernel reports the first. */
  check(value: unknown): Issue[] {
    const issues: Issue[] = [];
    if (!isObject(value)) {
      issues.push({ path: '', rule: 'must be a JSON object' });
      return issues;
    }
    this.#node(value, '', issues);
    // Last: a missing key group is the least specific problem.
    const group = this.#keyGroups(value);
    if (group) issues.push({ path: '', rule: group });
    return issues;
  }

  #claim(key: string, plugin: string): void {
    if ((STRUCTURAL as readonly string[]).includes(key)) throw new Error(`plugin "${plugin}" declares the config key "${key}", which is the kernel's`);
    const owner = this.#owners.get(key);
    if (owner !== undefined) throw new Error(`config key "${key}" is declared by both "${owner}" and "${plugin}"`);
    this.#owners.set(key, plugin);
  }

  /** `prefix` is the node's path followed by '.', or '' for the root. */
  #node(n: Node, prefix: string, issues: Issue[]): void {
    let shapeOk = true;
    for (const key in n) {
      const value = n[key];
      // An undefined value is an absent key (a config assembled in code, not parsed from JSON).
      if (value === undefined) continue;
      const byHand = this.#values.get(key);
      if (byHand) {
        const before = issues.length;
        byHand(value, (path, rule) => issues.push(at(prefix, path ? `${key}.${path}` : key, rule)));
        if (issues.length > before) shapeOk = false;
        continue;
      }
      const field = this.#fields.get(key);
      if (field?.check(value)) continue;
      shapeOk = false;
      if (!field) issues.push(at(prefix, key, this.#notAllowed(key)));
      else if (key !== 'strategy' || !this.#strategyKeysNotLoaded(value, prefix, issues)) {
        for (const i of field.issues(value)) issues.push(at(prefix, i.path ? `${key}.${i.path}` : key, i.rule));
      }
    }
    // Rules across keys assume the types are right; a node with type errors is reported as such.
    if (shapeOk) {
      let report: ConfigReport | undefined;
      for (const { config, on } of this.#rules) {
        if (!setsAny(n, on)) continue;
        report ??= (path, rule) => issues.push(at(prefix, path, rule));
        config.rules!(n, report, this.#context);
      }
      this.#strategyRules(n, prefix, issues);
    }
    const targets = n['targets'];
    if (Array.isArray(targets)) {
      for (let i = 0; i < targets.length; i++) {
        const t: unknown = targets[i];
        if (isObject(t)) this.#node(t, `${prefix}targets.${i}.`, issues);
      }
    }
  }

  #notAllowed(key: string): string {
    const plugin = this.#hints.configKeys?.[key];
    return plugin ? `needs plugin ${plugin}, which is not loaded` : 'is not an allowed key';
  }

  /** Strategy keys of plugins that are not loaded, each reported by name; true when there were any. */
  #strategyKeysNotLoaded(strategy: unknown, prefix: string, issues: Issue[]): boolean {
    if (!isObject(strategy)) return false;
    let found = false;
    for (const key in strategy) {
      const plugin = this.#owners.has(`strategy.${key}`) ? undefined : this.#hints.configKeys?.[`strategy.${key}`];
      if (!plugin) continue;
      issues.push(at(prefix, `strategy.${key}`, `needs plugin ${plugin}, which is not loaded`));
      found = true;
    }
    return found;
  }

  /** The kernel's own rules: a strategy routes over targets, with a mode some loaded plugin registered. */
  #strategyRules(n: Node, prefix: string, issues: Issue[]): void {
    const strategy = n['strategy'] as { mode: string } | undefined;
    if (!strategy) return;
    if (!n['targets']) issues.push(at(prefix, 'targets', 'is required when strategy.mode is set'));
    const strategies = this.#context.registries.strategies;
    const mode = strategy.mode;
    if (strategies.has(mode)) return;
    const plugin = this.#context.pluginFor('strategies', mode);
    const known = strategies.keys();
    const rule = plugin ? `"${mode}" needs plugin ${plugin}, which is not loaded`
      : known.length > 0 ? `must be one of ${known.map((k) => JSON.stringify(k)).join(', ')}`
        : `no strategy plugin for "${mode}" is loaded`;
    issues.push(at(prefix, 'strategy.mode', rule));
  }

  /** The rule broken when no key group is complete, or undefined when one is. */
  #keyGroups(n: Node): string | undefined {
    const provider = n['provider'];
    // A stored integration (`@slug`) holds its own credentials.
    if (typeof provider === 'string' && provider.length > 1 && provider[0] === '@') return undefined;
    const groups = this.#groups;
    for (const group of groups) if (hasAll(n, group)) return undefined;
    // Name what the nearest started group lacks; a bare provider starts no group by itself.
    let best: readonly string[] | undefined;
    let bestCount = 0;
    for (const group of groups) {
      let count = 0;
      let started = false;
      for (const key of group) {
        if (n[key] === undefined) continue;
        count++;
        if (key !== 'provider') started = true;
      }
      // Most keys present first; on a tie, the group that lacks fewer keys.
      if (started && (count > bestCount || (count === bestCount && best && group.length < best.length))) { best = group; bestCount = count; }
    }
    if (best) {
      const have = best.filter((k) => n[k] !== undefined);
      const missing = best.filter((k) => n[k] === undefined);
      return `has ${have.join(', ')} but also needs ${missing.join(', ')}`;
    }
    if (provider !== undefined) return this.#groupMessages.provider(JSON.stringify(provider));
    return this.#groupMessages.none;
  }
}

/** `retry` → `x-gw-retry`, `request_timeout` → `x-gw-request-timeout` (HTTP lower-cases header names). */
function headerNameOf(key: string): string {
  return 'x-gw-' + key.replace(/_/g, '-').toLowerCase();
}

function optional(properties: Record<string, TSchema>): Record<string, TSchema> {
  const out: Record<string, TSchema> = {};
  for (const key in properties) out[key] = Type.Optional(properties[key]!);
  return out;
}

function setsAny(n: Node, keys: readonly string[]): boolean {
  for (const key of keys) if (n[key] !== undefined) return true;
  return false;
}

function hasAll(n: Node, keys: readonly string[]): boolean {
  for (const key of keys) if (n[key] === undefined) return false;
  return true;
}

function isObject(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An issue at `prefix` + `rel`; `prefix` ends with '.' (or is ''), `rel` may be '' (the node itself). */
function at(prefix: string, rel: string, rule: string): Issue {
  return { path: rel ? prefix + rel : prefix.slice(0, -1), rule };
}
