/**
 * Replaces integration references in a raw route config (`provider: "@slug"`, `virtual_key`) by
 * the stored provider, configurations and credentials, before the config is validated.
 *
 * Inheritance stays as written: a node that names an integration owns it, and its children that
 * name no provider of their own get it too. Credentials are placed on the leaves only (a node with
 * targets keeps just a `virtual_key` marker), so a child that names another provider can never
 * inherit an integration's key or host. Every resolved node carries `virtual_key: <integration id>`
 * (the kernel then gives it no credentials of its parent's, and usage plugins learn which
 * integration served). Whatever credential fields the client sent on a resolved node are dropped:
 * a stored key never goes to a host the client chose.
 */
import { Errors, type KeyRoles, type Principal } from '../../../core/index.js';
import type { IntegrationCatalogue } from './catalogue.js';
import type { CredentialCache } from './credentials.js';
import type { Integration } from './record.js';

type Node = Record<string, unknown>;

export interface Caller {
  organisationId: string;
  workspaceId: string | undefined;
  /** The client body's model: a model-specific custom_host applies to it. */
  model: unknown;
}

export function callerOf(principal: Principal | undefined, body: Record<string, unknown>): Caller {
  return { organisationId: principal?.organisationId ?? 'default', workspaceId: principal?.workspaceId, model: body['model'] };
}

/** Cheap test run on every request: does any node name an integration? */
export function referencesIntegration(node: Node): boolean {
  const provider = node['provider'];
  if (node['virtual_key'] !== undefined || (typeof provider === 'string' && provider.charCodeAt(0) === 64 /* @ */)) return true;
  const targets = node['targets'];
  if (!Array.isArray(targets)) return false;
  for (const t of targets) if (t !== null && typeof t === 'object' && referencesIntegration(t as Node)) return true;
  return false;
}

export function allowedIn(integration: Integration, workspaceId: string | undefined): boolean {
  return workspaceId === undefined || integration.allowAllWorkspaces || integration.allowedSet.has(workspaceId);
}

export class IntegrationResolver {
  constructor(
    private readonly catalogue: IntegrationCatalogue,
    private readonly credentials: CredentialCache,
    /** Which config keys are credentials (the gateway's ConfigKeys): a resolved node's own are replaced. */
    private readonly keys: KeyRoles,
  ) {}

  /** The config with every reference resolved (a new object where anything changed). */
  resolve(config: Node, caller: Caller): Promise<Node> {
    return this.#node(config, undefined, undefined, '', caller);
  }

  async #node(node: Node, inherited: Integration | undefined, inheritedModel: unknown, path: string, caller: Caller): Promise<Node> {
    const own = this.#own(node, path, caller);
    // A node without a provider of its own inherits its parent's integration.
    const integration = own ?? (node['provider'] === undefined ? inherited : undefined);
    // override_params is inherited as a whole (the kernel merges by key), so is its model.
    const override = node['override_params'] as Node | undefined;
    const model = override !== undefined ? override['model'] : inheritedModel;
    const targets = node['targets'];

    let out: Node | undefined;
    if (integration) {
      out = {};
      for (const key in node) if (!this.keys.isCredential(key)) out[key] = node[key];
      out['virtual_key'] = integration.id;
      if (!Array.isArray(targets)) {
        const fields = this.credentials.fields(integration, caller.workspaceId);
        Object.assign(out, fields instanceof Promise ? await fields : fields);
        const host = integration.modelHosts.size > 0 ? integration.modelHosts.get(String(model ?? caller.model)) : undefined;
        if (host !== undefined) out['custom_host'] = host;
      }
    } else if (inherited) {
      // Names a plain provider below a resolved node: the parent's marker must not reach it
      // (an undefined key is an absent one, for validation and for the kernel's inheritance).
      out = { ...node, virtual_key: undefined };
    }
    if (Array.isArray(targets)) {
      let changed: unknown[] | undefined;
      for (let i = 0; i < targets.length; i++) {
        const child = targets[i] as Node;
        if (child === null || typeof child !== 'object') continue;
        if (!integration && !referencesIntegration(child)) continue;
        const resolved = await this.#node(child, integration, model, `${path}targets.${i}.`, caller);
        if (resolved !== child) (changed ??= targets.slice())[i] = resolved;
      }
      if (changed) (out ??= { ...node })['targets'] = changed;
    }
    return out ?? node;
  }

  /** The integration a node names itself, checked against the caller; undefined when it names none. */
  #own(node: Node, prefix: string, caller: Caller): Integration | undefined {
    const virtualKey = node['virtual_key'];
    const provider = node['provider'];
    const slug = typeof provider === 'string' && provider.length > 1 && provider.charCodeAt(0) === 64 ? provider.slice(1) : undefined;
    let integration: Integration | undefined;
    let named: string;
    if (virtualKey !== undefined) {
      if (typeof virtualKey !== 'string' || virtualKey === '') throw Errors.invalidConfig(prefix + 'virtual_key', 'must be a non-empty string');
      if (slug !== undefined) throw Errors.invalidConfig(prefix + 'virtual_key', `cannot be combined with provider "${provider}": name the integration once`);
      integration = this.catalogue.find(caller.organisationId, virtualKey);
      named = `virtual key "${virtualKey}"`;
      if (!integration) throw Errors.invalidConfig(prefix + 'virtual_key', `no integration or virtual key "${virtualKey}" (unknown or deleted)`);
    } else if (slug !== undefined) {
      integration = this.catalogue.bySlug(caller.organisationId, slug);
      named = `integration "@${slug}"`;
      if (!integration) throw Errors.invalidConfig(prefix + 'provider', `no integration "@${slug}" (unknown or deleted)`);
      if (integration.providerSlug === undefined) {
        throw Errors.invalidConfig(prefix + 'provider', `integration "${slug}" has no default provider (create_default_provider: false): name it with virtual_key`);
      }
    } else {
      return undefined;
    }
    if (!allowedIn(integration, caller.workspaceId)) {
      throw Errors.forbidden(`${named} is not allowed in workspace ${caller.workspaceId}`);
    }
    return integration;
  }
}
