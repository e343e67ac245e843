/** Bodies of the usage-limit policy routes, compiled once; rules across fields in `*Issues`. */
import { compile, isDateInRange, StringEnum, Type, type Issue, type Static } from '../../../core/index.js';
import { ConditionsSchema, GroupBysSchema, groupByIssues } from '../limits-common/conditions.js';

const Name = Type.Union([Type.String({ maxLength: 255 }), Type.Null()], { errorMessage: 'must be a string of at most 255 characters, or null' });
const UsageType = StringEnum(['cost', 'tokens']);
const Limit = Type.Number({ minimum: 0, maximum: 1e15 });
const Threshold = Type.Union([Type.Number({ minimum: 0, maximum: 1e15 }), Type.Null()], { errorMessage: 'must be a number >= 0, or null' });
const PeriodicReset = Type.Union([Type.Literal('weekly'), Type.Literal('monthly'), Type.Null()], { errorMessage: 'must be "weekly", "monthly" or null' });
const ResetDays = Type.Union([Type.Integer({ minimum: 1, maximum: 365 }), Type.Null()], { errorMessage: 'must be an integer from 1 to 365, or null' });
const DateTime = Type.String({ minLength: 1, maxLength: 64 });

const Common = {
  name: Type.Optional(Name),
  alert_threshold: Type.Optional(Threshold),
  periodic_reset: Type.Optional(PeriodicReset),
  periodic_reset_days: Type.Optional(ResetDays),
  /** The first reset of a days schedule; normalised to 00:00 UTC of its day. */
  next_usage_reset_at: Type.Optional(DateTime),
};

export const CreateBody = Type.Object({
  ...Common,
  conditions: ConditionsSchema,
  group_by: GroupBysSchema,
  type: UsageType,
  credit_limit: Limit,
  workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  organisation_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
}, { additionalProperties: false });

export const UpdateBody = Type.Object({
  ...Common,
  conditions: Type.Optional(ConditionsSchema),
  group_by: Type.Optional(GroupBysSchema),
  credit_limit: Type.Optional(Limit),
  /** Sets one group's usage of the current period back to 0 (its value key, see docs/limits-and-observability.md). */
  reset_usage_for_value: Type.Optional(Type.String({ maxLength: 2048 })),
}, { additionalProperties: false });

export type CreateBody = Static<typeof CreateBody>;
export type UpdateBody = Static<typeof UpdateBody>;

export const createValidator = compile(CreateBody);
export const updateValidator = compile(UpdateBody);

/** The fields after a change, for the rules across fields. */
export interface Settled {
  credit_limit: number;
  alert_threshold: number | null;
  periodic_reset: string | null;
  periodic_reset_days: number | null;
  next_usage_reset_at?: string;
}

export function settledIssues(s: Settled): Issue[] {
  const issues: Issue[] = [];
  if (s.periodic_reset !== null && s.periodic_reset_days !== null) {
    issues.push({ path: 'periodic_reset_days', rule: 'cannot be set together with periodic_reset (they are mutually exclusive)' });
  }
  if (s.alert_threshold !== null && s.alert_threshold >= s.credit_limit) {
    issues.push({ path: 'alert_threshold', rule: 'must be less than credit_limit' });
  }
  if (s.next_usage_reset_at !== undefined) {
    if (!isDateInRange(Date.parse(s.next_usage_reset_at))) issues.push({ path: 'next_usage_reset_at', rule: 'must be an ISO 8601 date or date-time within years 0000 to 9999' });
    else if (s.periodic_reset_days === null) issues.push({ path: 'next_usage_reset_at', rule: 'needs periodic_reset_days' });
  }
  return issues;
}

export function createIssues(body: CreateBody): Issue[] {
  return [
    ...groupByIssues(body.group_by),
    ...settledIssues({
      credit_limit: body.credit_limit,
      alert_threshold: body.alert_threshold ?? null,
      periodic_reset: body.periodic_reset ?? null,
      periodic_reset_days: body.periodic_reset_days ?? null,
      next_usage_reset_at: body.next_usage_reset_at,
    }),
  ];
}

export const updateIssues = (body: UpdateBody): Issue[] => (body.group_by ? groupByIssues(body.group_by) : []);
