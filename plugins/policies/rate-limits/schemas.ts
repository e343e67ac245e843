/** Bodies of the rate-limit policy routes (spec §2.2, §4.15), compiled once. */
import { compile, StringEnum, Type, type Static } from '../../../core/index.js';
import { ConditionsSchema, GroupBysSchema, groupByIssues } from '../limits-common/conditions.js';

const Name = Type.Union([Type.String({ maxLength: 255 }), Type.Null()], { errorMessage: 'must be a string of at most 255 characters, or null' });
const LimitType = StringEnum(['requests', 'tokens']);
const Unit = StringEnum(['rpm', 'rph', 'rpd', 'rpw']);
const Value = Type.Number({ exclusiveMinimum: 0, maximum: 1e15 });

export const CreateBody = Type.Object({
  name: Type.Optional(Name),
  conditions: ConditionsSchema,
  group_by: GroupBysSchema,
  type: LimitType,
  unit: Unit,
  value: Value,
  /** Id or slug; default: the caller's workspace (the default workspace for organisation keys). */
  workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  /** Default and only allowed value: the caller's organisation. */
  organisation_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
}, { additionalProperties: false });

export const UpdateBody = Type.Object({
  name: Type.Optional(Name),
  conditions: Type.Optional(ConditionsSchema),
  group_by: Type.Optional(GroupBysSchema),
  type: Type.Optional(LimitType),
  unit: Type.Optional(Unit),
  value: Type.Optional(Value),
}, { additionalProperties: false });

export type CreateBody = Static<typeof CreateBody>;
export type UpdateBody = Static<typeof UpdateBody>;

export const createValidator = compile(CreateBody);
export const updateValidator = compile(UpdateBody);

export const createIssues = (body: CreateBody) => groupByIssues(body.group_by);
export const updateIssues = (body: UpdateBody) => (body.group_by ? groupByIssues(body.group_by) : []);
