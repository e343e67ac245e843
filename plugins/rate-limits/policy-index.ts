/**
 * Active policies in memory, compiled and indexed by (organisation, workspace), so the hot path
 * never reads the record store: one map lookup per request, none at all while there is no policy.
 * Reloaded whole after every change made through this instance, and every `refreshMs` in the
 * background (so changes made through another instance apply within that time).
 */
export interface Scoped {
  organisation_id: string;
  workspace_id: string;
}

export function scopeKey(organisationId: string, workspaceId: string): string {
  return organisationId + '\u0000' + workspaceId;
}

export class PolicyIndex<P extends Scoped, C> {
  #byScope = new Map<string, C[]>();
  #size = 0;
  #generation = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly load: () => Promise<P[]>,
    private readonly compile: (policy: P) => C,
  ) {}

  /** No active policy anywhere: the hot path returns at once. */
  get empty(): boolean {
    return this.#size === 0;
  }

  forScope(organisationId: string, workspaceId: string): readonly C[] | undefined {
    return this.#byScope.get(scopeKey(organisationId, workspaceId));
  }

  async reload(): Promise<void> {
    const generation = ++this.#generation;
    const policies = await this.load();
    // A slower, older reload must not overwrite a newer one.
    if (generation !== this.#generation) return;
    const next = new Map<string, C[]>();
    for (const policy of policies) {
      const key = scopeKey(policy.organisation_id, policy.workspace_id);
      let list = next.get(key);
      if (!list) next.set(key, (list = []));
      list.push(this.compile(policy));
    }
    this.#byScope = next;
    this.#size = policies.length;
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
