/**
 * Who may manage policies, and which workspace a request or a new policy belongs to.
 *
 * Routes need the scope `<family>.<action>` (`rate_limits.create`, `usage_limits.read` ...;
 * organisation owners and admins have every scope); workspace members (role `member`) may read
 * but not write. A policy lives in one workspace of one organisation: keys of another workspace
 * or organisation never see it (404). Which requests it applies to:
 *   - without a `workspace_id` condition: requests made with keys of its own workspace;
 *   - with one: requests of its organisation in the workspaces that condition selects (a
 *     workspace-bound key may only select its own workspace; organisation keys any, `*` all).
 * Organisation-level keys (no workspace) count as the organisation's default workspace, for
 * requests and as the owner of the policies they create. Workspaces come from the control
 * plane's Directory service (admin.workspaces) when one is provided; without it a workspace id is
 * taken as given and the default workspace is named `default`.
 */
import {
  canUseWorkspace, Errors, requireScope, type Principal, type RequestContext,
} from '../../../core/index.js';
import type { Directory } from '../../admin/workspaces/contract.js';

export const DEFAULT_WORKSPACE_SLUG = 'default';

export type Action = 'create' | 'read' | 'list' | 'update' | 'delete';
const WRITES: ReadonlySet<Action> = new Set(['create', 'update', 'delete']);

/** The caller, when its key grants `<family>.<action>` (and, to write, is not a workspace member). */
export function authorise(ctx: RequestContext, family: string, action: Action): Principal {
  const principal = requireScope(ctx, `${family}.${action}`);
  if (WRITES.has(action) && principal.role?.toLowerCase() === 'member') {
    throw Errors.forbidden(`workspace members may not ${action} ${family.replace('_', '-')} policies`);
  }
  return principal;
}

export function organisationOf(principal: Principal): string {
  return principal.organisationId ?? '';
}

/** Whether the caller may see a record of (organisation, workspace). */
export function visibleTo(principal: Principal, record: { organisation_id: string; workspace_id: string }): boolean {
  return record.organisation_id === organisationOf(principal) && canUseWorkspace(principal, record.workspace_id);
}

export class Workspaces {
  readonly #defaultPromises = new Map<string, Promise<string>>();
  /** Each organisation's default workspace id once known (read on the hot path without awaiting). */
  readonly #defaults = new Map<string, string>();

  /** `find`: the Directory service when loaded, looked up on use (its plugin may be applied after the caller's). */
  constructor(private readonly find: () => Directory | undefined) {}

  directory(): Directory | undefined {
    return this.find();
  }

  resolveDefault(organisationId: string): Promise<string> {
    let known = this.#defaultPromises.get(organisationId);
    if (!known) {
      known = (async () => {
        let id = DEFAULT_WORKSPACE_SLUG;
        try {
          id = (await this.directory()?.workspace(DEFAULT_WORKSPACE_SLUG, organisationId || undefined))?.id ?? DEFAULT_WORKSPACE_SLUG;
        } catch {
          /* a failing directory leaves the documented default */
        }
        this.#defaults.set(organisationId, id);
        return id;
      })();
      this.#defaultPromises.set(organisationId, known);
    }
    return known;
  }

  /** The workspace a request counts in; undefined until its organisation's default is resolved (resolveDefault). */
  requestWorkspace(principal: Principal): string | undefined {
    return principal.workspaceId ?? this.#defaults.get(organisationOf(principal));
  }

  /** The owner of a new policy: the given workspace (id or slug) and organisation, else the caller's. */
  async owner(principal: Principal, workspace?: string, organisation?: string): Promise<{ workspaceId: string; organisationId: string }> {
    const organisationId = organisationOf(principal);
    if (organisation !== undefined && organisation !== organisationId) {
      throw Errors.forbidden(`the API key does not belong to organisation ${organisation}`);
    }
    let workspaceId = workspace ?? principal.workspaceId ?? (await this.resolveDefault(organisationId));
    const directory = this.directory();
    if (workspace !== undefined && directory) {
      const found = await directory.workspace(workspace, organisationId || undefined);
      if (!found || (found.organisation_id !== undefined && found.organisation_id !== organisationId)) {
        // A workspace-bound key learns nothing about other workspaces.
        if (principal.workspaceId !== undefined) throw Errors.forbidden(`the API key does not belong to workspace ${workspace}`);
        throw Errors.invalidBody('workspace_id', `unknown workspace "${workspace}"`);
      }
      if (found.status !== undefined && found.status !== 'active') throw Errors.invalidBody('workspace_id', `workspace "${workspace}" is ${found.status}`);
      workspaceId = found.id;
    }
    if (!canUseWorkspace(principal, workspaceId)) throw Errors.forbidden(`the API key does not belong to workspace ${workspace}`);
    return { workspaceId, organisationId };
  }

  /**
   * `workspace_id` condition values as ids (slugs are resolved when the directory knows them); a
   * workspace-bound caller may only select its own workspace (403 otherwise).
   */
  async workspaceCondition(principal: Principal, values: string | string[]): Promise<string | string[]> {
    const resolved = await this.normaliseWorkspaceValues(values, organisationOf(principal));
    const own = principal.workspaceId;
    if (own !== undefined) {
      for (const value of typeof resolved === 'string' ? [resolved] : resolved) {
        if (value !== own) throw Errors.forbidden(`the API key does not belong to workspace ${value}`);
      }
    }
    return resolved;
  }

  /** Condition values for `workspace_id` may name slugs: stored as ids when the directory knows them. */
  async normaliseWorkspaceValues(values: string | string[], organisationId: string): Promise<string | string[]> {
    const directory = this.directory();
    if (!directory) return values;
    const one = async (v: string) => (v === '*' ? v : (await directory.workspace(v, organisationId || undefined).catch(() => undefined))?.id ?? v);
    return typeof values === 'string' ? one(values) : Promise.all(values.map(one));
  }
}
