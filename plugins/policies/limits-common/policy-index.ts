/**
 * Active policies in memory, compiled and indexed, so the hot path never reads the record store:
 * two map lookups per request (the policies of the request's workspace, and the organisation's
 * policies that name workspaces in a `workspace_id` condition), none while there is no policy.
 * Reloaded whole after every change made through this instance; on the others when the change
 * reaches them on the invalidation bus (`follow`), and every `refreshMs` in the background (the
 * bound when no relay carries changes).
 */
import type { Changes, RequestContext } from '../../../core/index.js';

export interface Scoped {
  organisation_id: string;
  workspace_id: string;
  conditions: readonly { key: string }[];
}

/** A policy without a `workspace_id` condition applies in its own workspace only. */
function organisationWide(policy: Scoped): boolean {
  return policy.conditions.some((c) => c.key === 'workspace_id');
}

interface OrganisationPolicies<C> {
  /** By workspace id: policies of that workspace (no workspace_id condition). */
  byWorkspace: Map<string, C[]>;
  /** Policies selecting workspaces by condition. */
  wide: C[] | undefined;
}

export class PolicyIndex<P extends Scoped, C> {
  #byOrganisation = new Map<string, OrganisationPolicies<C>>();
  #size = 0;
  #generation = 0;
  #timer: NodeJS.Timeout | undefined;
  #publish: (() => void) | undefined;

  constructor(
    private readonly load: () => Promise<P[]>,
    private readonly compile: (policy: P) => C,
  ) {}

  /** No active policy anywhere: the hot path returns at once. */
  get empty(): boolean {
    return this.#size === 0;
  }

  /** Policies of one workspace (those without a workspace_id condition). */
  forWorkspace(organisationId: string, workspaceId: string): readonly C[] | undefined {
    return this.#byOrganisation.get(organisationId)?.byWorkspace.get(workspaceId);
  }

  /** Policies of an organisation that select workspaces by condition. */
  forOrganisation(organisationId: string): readonly C[] | undefined {
    return this.#byOrganisation.get(organisationId)?.wide;
  }

  /**
   * The policies whose conditions match a request of `workspaceId`: its workspace's own, then the
   * organisation's workspace-selecting ones. Undefined when none match (the common, free case).
   */
  matching(
    ctx: RequestContext, organisationId: string, workspaceId: string,
    matches: (compiled: C, ctx: RequestContext, workspaceId: string) => boolean,
  ): C[] | undefined {
    const own = this.forWorkspace(organisationId, workspaceId);
    const wide = this.forOrganisation(organisationId);
    let matched: C[] | undefined;
    if (own) for (let i = 0; i < own.length; i++) if (matches(own[i]!, ctx, workspaceId)) (matched ??= []).push(own[i]!);
    if (wide) for (let i = 0; i < wide.length; i++) if (matches(wide[i]!, ctx, workspaceId)) (matched ??= []).push(wide[i]!);
    return matched;
  }

  async reload(): Promise<void> {
    const generation = ++this.#generation;
    const policies = await this.load();
    // A slower, older reload must not overwrite a newer one.
    if (generation !== this.#generation) return;
    const next = new Map<string, OrganisationPolicies<C>>();
    for (const policy of policies) {
      let organisation = next.get(policy.organisation_id);
      if (!organisation) next.set(policy.organisation_id, (organisation = { byWorkspace: new Map(), wide: undefined }));
      const compiled = this.compile(policy);
      if (organisationWide(policy)) {
        (organisation.wide ??= []).push(compiled);
      } else {
        let list = organisation.byWorkspace.get(policy.workspace_id);
        if (!list) organisation.byWorkspace.set(policy.workspace_id, (list = []));
        list.push(compiled);
      }
    }
    this.#byOrganisation = next;
    this.#size = policies.length;
  }

  /** Reloads when `topic` is published, on any instance; `changed()` publishes it. */
  follow(changes: Changes, topic: string, onError: (error: unknown) => void): void {
    changes.subscribe(topic, () => void this.reload().catch(onError));
    this.#publish = () => changes.publish(topic);
  }

  /** A policy was written through this instance: reload here (awaited), then tell every other. */
  async changed(): Promise<void> {
    await this.reload();
    this.#publish?.();
  }

  startRefresh(everyMs: number, onError: (error: unknown) => void): void {
    if (everyMs <= 0) return;
    this.#timer = setInterval(() => void this.reload().catch(onError), everyMs);
    this.#timer.unref();
  }

  close(): void {
    clearInterval(this.#timer);
  }
}
