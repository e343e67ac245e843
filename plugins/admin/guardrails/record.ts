/**
 * A stored guardrail: a named list of checks with the actions of a hook (spec §2.1 guardrail
 * object), referenced by id or slug from `input_guardrails` / `output_guardrails` (and the hook
 * arrays). The runner receives it in the hook shape `{ id, type, deny, async, checks, on_fail, on_success }`.
 */

export interface CheckRef {
  id: string;
  parameters: Record<string, unknown>;
}

export interface FeedbackRef {
  value?: number;
  weight?: number;
  metadata?: Record<string, unknown>;
}

export interface Actions {
  deny?: boolean;
  async?: boolean;
  on_fail?: { feedback?: FeedbackRef; deny?: boolean };
  on_success?: { feedback?: FeedbackRef };
}

export interface Guardrail {
  readonly id: string;
  readonly organisationId: string;
  readonly workspaceId: string | undefined;
  readonly slug: string;
  readonly name: string;
  readonly checks: readonly CheckRef[];
  readonly actions: Actions;
  readonly revision: number;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  /** What the guardrail runner gets (frozen). */
  readonly hook: Readonly<Record<string, unknown>>;
}

export interface GuardrailRow {
  id: string;
  organisation_id: string;
  workspace_id: string | null;
  slug: string;
  name: string;
  checks: string;
  actions: string;
  revision: number;
  created_at: string;
  last_updated_at: string;
}

export function fromRow(row: GuardrailRow): Guardrail {
  const checks = JSON.parse(row.checks) as CheckRef[];
  const actions = JSON.parse(row.actions) as Actions;
  const hook: Record<string, unknown> = { id: row.slug, type: 'guardrail', deny: actions.deny === true, async: actions.async === true, checks };
  if (actions.on_fail) hook['on_fail'] = actions.on_fail;
  if (actions.on_success) hook['on_success'] = actions.on_success;
  return Object.freeze({
    id: row.id,
    organisationId: row.organisation_id,
    workspaceId: row.workspace_id ?? undefined,
    slug: row.slug,
    name: row.name,
    checks,
    actions,
    revision: Number(row.revision),
    createdAt: row.created_at,
    lastUpdatedAt: row.last_updated_at,
    hook: deepFrozen(hook),
  });
}

function deepFrozen<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFrozen(v);
  }
  return value;
}
