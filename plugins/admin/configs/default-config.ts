/**
 * Default configs: a request that names no config (no `x-gw-config`, no direct-mode headers) is
 * routed by the stored config its caller's API key names (`default_config_id`), else by its
 * workspace's. Coding agents send only a key (Claude Code: ANTHROPIC_AUTH_TOKEN) and no gateway
 * headers, so this is where their route comes from.
 */
import { Errors, type Principal } from '../../../core/index.js';
import type { Directory } from '../workspaces/contract.js';
import type { StoredConfigCache } from './cache.js';
import type { StoredConfigs } from './contract.js';

/** The StoredConfigs service over the cache (the latest version of each config). */
export function storedConfigs(cache: StoredConfigCache): StoredConfigs {
  const find: StoredConfigs['find'] = async (organisationId, ref) => {
    const found = await cache.get(organisationId, ref);
    return found ? { id: found.id, slug: found.slug, workspaceId: found.workspaceId } : undefined;
  };
  return {
    find,
    async defaultFor(organisationId, ref, workspaceId) {
      const found = await find(organisationId, ref);
      if (!found) throw Errors.invalidBody('default_config_id', `no stored config "${ref}" (create it with POST /v1/configs first)`);
      // As at request time (index.ts `use`): a workspace's config is for that workspace only.
      if (found.workspaceId !== undefined && workspaceId !== undefined && found.workspaceId !== workspaceId) {
        throw Errors.invalidBody('default_config_id', `config "${ref}" belongs to another workspace`);
      }
      return found;
    },
  };
}

export interface DefaultConfigChoice {
  /** The stored config's id as written on the key or workspace. */
  id: string;
  /** Where it was found, for the error when it is gone. */
  owner: 'API key' | 'workspace';
}

/** The caller's default config: its key's wins over its workspace's; undefined when neither has one. */
export async function defaultConfigOf(principal: Principal | undefined, directory: Directory | undefined): Promise<DefaultConfigChoice | undefined> {
  if (!principal) return undefined;
  if (principal.defaultConfigId) return { id: principal.defaultConfigId, owner: 'API key' };
  if (principal.workspaceId === undefined || !directory) return undefined;
  const workspace = await directory.workspace(principal.workspaceId, principal.organisationId);
  return workspace?.default_config_id ? { id: workspace.default_config_id, owner: 'workspace' } : undefined;
}

/** A default config that was deleted after it was attached: the caller cannot fix it, an admin can. */
export function defaultConfigGone(choice: DefaultConfigChoice): Error {
  return Errors.invalidRequest(
    `the ${choice.owner}'s default config "${choice.id}" no longer exists (deleted): set another default_config_id on the ${choice.owner}, or name a config with x-gw-config`,
    'default_config_id', 'default_config_not_found',
  );
}
