/**
 * Which requests a policy applies to (`conditions`, all must match) and how it buckets them
 * (`group_by`: each distinct combination of values has its own counter).
 *
 *   condition keys  workspace_id, endpoint_type (the kernel's endpoint id: chatComplete, complete,
 *                   embed, moderate, rerank ...), api_key (the key id), metadata.<key> (x-gw-metadata)
 *   group_by keys   api_key, workspace_id, metadata.<key>, jwt.<claim> (callers named by a JWT:
 *                   `jwt.sub` and `jwt.groups` are the subject and groups as the organisation maps
 *                   them, any other name the claim itself; a list is its values sorted and joined
 *                   with ","; callers without a JWT fall into the empty bucket)
 *
 * A condition's `value` is a string or a list (any of them matches); `"*"` matches any present value;
 * `excludes` (string or list) refuses values. A request without a group_by value (no such metadata
 * key) falls into the bucket of the empty value, so omitting metadata never escapes a limit.
 * Policies are compiled once when loaded; matching a request is a few property reads.
 */
import { Type, type RequestContext, type Static } from '../../../core/index.js';

const CONDITION_KEY_PATTERN = '^(?:workspace_id|endpoint_type|api_key|metadata\\.[^\\s]{1,128})$';
const GROUP_KEY_PATTERN = '^(?:workspace_id|api_key|metadata\\.[^\\s]{1,128}|jwt\\.[^\\s]{1,128})$';

const Value = Type.String({ minLength: 1, maxLength: 512 });
const Values = Type.Union([Value, Type.Array(Value, { minItems: 1, maxItems: 100 })], {
  errorMessage: 'must be a non-empty string or a list of 1 to 100 non-empty strings',
});

export const ConditionSchema = Type.Object({
  key: Type.String({ pattern: CONDITION_KEY_PATTERN, errorMessage: 'must be workspace_id, endpoint_type, api_key or metadata.<key>' }),
  value: Values,
  excludes: Type.Optional(Values),
}, { additionalProperties: false });

export const GroupBySchema = Type.Object({
  key: Type.String({ pattern: GROUP_KEY_PATTERN, errorMessage: 'must be api_key, workspace_id, metadata.<key> or jwt.<claim>' }),
}, { additionalProperties: false });

export const ConditionsSchema = Type.Array(ConditionSchema, { minItems: 1, maxItems: 20 });
export const GroupBysSchema = Type.Array(GroupBySchema, { minItems: 1, maxItems: 5 });

export type Condition = Static<typeof ConditionSchema>;
export type GroupBy = Static<typeof GroupBySchema>;

/** One request fact: the value a key names, for a request in workspace `workspaceId`. */
type Fact = (ctx: RequestContext, workspaceId: string) => string | undefined;

const FACTS: Readonly<Record<string, Fact>> = {
  workspace_id: (_ctx, workspaceId) => workspaceId,
  endpoint_type: (ctx) => ctx.endpoint?.id,
  api_key: (ctx) => ctx.principal?.keyId,
};

function factOf(key: string): Fact {
  const known = FACTS[key];
  if (known) return known;
  if (key.startsWith('jwt.')) return jwtFact(key.slice('jwt.'.length));
  const name = key.slice('metadata.'.length);
  return (ctx) => ctx.metadata[name];
}

/** A claim of the caller's JWT as one bucket value; `sub` and `groups` as the organisation maps them. */
function jwtFact(name: string): Fact {
  if (name === 'sub') return (ctx) => ctx.principal?.jwt?.subject;
  if (name === 'groups') return (ctx) => bucketValue(ctx.principal?.jwt?.groups);
  return (ctx) => bucketValue(ctx.principal?.jwt?.claims[name]);
}

/** Lists sorted (the same groups in any order are one bucket); objects as JSON. */
function bucketValue(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).sort().join(',');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

const asSet = (v: string | string[] | undefined) => (v === undefined ? undefined : new Set(typeof v === 'string' ? [v] : v));

interface CompiledCondition {
  fact: Fact;
  /** undefined: any present value (`*`). */
  values: ReadonlySet<string> | undefined;
  excludes: ReadonlySet<string> | undefined;
}

export interface Matcher {
  /** Whether every condition holds for the request. */
  matches(ctx: RequestContext, workspaceId: string): boolean;
  /** The request's bucket: each group_by value URI-encoded, joined with ",". */
  group(ctx: RequestContext, workspaceId: string): string;
}

export function compileMatcher(conditions: readonly Condition[], groupBy: readonly GroupBy[]): Matcher {
  const compiled: CompiledCondition[] = conditions.map((c) => {
    const values = asSet(c.value)!;
    return { fact: factOf(c.key), values: values.has('*') ? undefined : values, excludes: asSet(c.excludes) };
  });
  const groups = groupBy.map((g) => factOf(g.key));
  return {
    matches(ctx, workspaceId) {
      for (let i = 0; i < compiled.length; i++) {
        const c = compiled[i]!;
        const value = c.fact(ctx, workspaceId);
        if (value === undefined || value === '') return false;
        if (c.values !== undefined && !c.values.has(value)) return false;
        if (c.excludes !== undefined && c.excludes.has(value)) return false;
      }
      return true;
    },
    group(ctx, workspaceId) {
      if (groups.length === 1) return encodeURIComponent(groups[0]!(ctx, workspaceId) ?? '');
      let out = '';
      for (let i = 0; i < groups.length; i++) out += (i ? ',' : '') + encodeURIComponent(groups[i]!(ctx, workspaceId) ?? '');
      return out;
    },
  };
}

/** Rules beyond the schema: each group_by key at most once. */
export function groupByIssues(groupBy: readonly GroupBy[], path = 'group_by'): { path: string; rule: string }[] {
  const seen = new Set<string>();
  const issues: { path: string; rule: string }[] = [];
  groupBy.forEach((g, i) => {
    if (seen.has(g.key)) issues.push({ path: `${path}.${i}.key`, rule: `"${g.key}" is listed twice` });
    seen.add(g.key);
  });
  return issues;
}
