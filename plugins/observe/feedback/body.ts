/**
 * The bodies of the feedback routes (Portkey's feedback API):
 *   POST /v1/feedback       {trace_id, value, weight?, metadata?}, or an array of 1 to 100 of them
 *   PUT  /v1/feedback/:id   {value?, weight?, metadata?}, at least one
 * A bad field is a 400 naming it (`value: must be an integer from -10 to 10`; in an array `1.value`).
 */
import { compile, Errors, Type, type Static, type Validator } from '../../../core/index.js';

export const MAX_FEEDBACK_PER_REQUEST = 100;
/** Our cap on a feedback's metadata, as JSON text: comments and a few tags, not documents. */
export const MAX_METADATA_CHARS = 16 * 1024;
const MAX_TRACE_ID_LENGTH = 128;

const Value = Type.Integer({ minimum: -10, maximum: 10, errorMessage: 'must be an integer from -10 to 10' });
const Weight = Type.Number({ minimum: 0, maximum: 1, errorMessage: 'must be a number from 0 to 1' });
const Metadata = Type.Record(Type.String(), Type.Unknown(), { errorMessage: 'must be a JSON object' });

const CreateSchema = Type.Object({
  trace_id: Type.String({ minLength: 1, maxLength: MAX_TRACE_ID_LENGTH, errorMessage: `must be a string of 1 to ${MAX_TRACE_ID_LENGTH} characters` }),
  value: Value,
  weight: Type.Optional(Weight),
  metadata: Type.Optional(Metadata),
}, { additionalProperties: false });

const UpdateSchema = Type.Object({
  value: Type.Optional(Value),
  weight: Type.Optional(Weight),
  metadata: Type.Optional(Metadata),
}, { additionalProperties: false });

export type CreateFeedback = Static<typeof CreateSchema>;
export type UpdateFeedback = Static<typeof UpdateSchema>;
const Create = compile(CreateSchema);
const Update = compile(UpdateSchema);

/** The feedback of a create body, in order (an object is one). */
export function createBodies(body: unknown): CreateFeedback[] {
  if (Array.isArray(body)) {
    if (body.length === 0 || body.length > MAX_FEEDBACK_PER_REQUEST) {
      throw Errors.invalidBody('', `must be a feedback object or an array of 1 to ${MAX_FEEDBACK_PER_REQUEST} of them`);
    }
    return body.map((item: unknown, i) => checked<CreateFeedback>(Create, item, String(i)));
  }
  return [checked<CreateFeedback>(Create, body, '')];
}

export function updateBody(body: unknown): UpdateFeedback {
  const update = checked<UpdateFeedback>(Update, body, '');
  if (update.value === undefined && update.weight === undefined && update.metadata === undefined) {
    throw Errors.invalidBody('', 'must set at least one of value, weight, metadata');
  }
  return update;
}

function checked<T>(validator: Validator<T>, value: unknown, prefix: string): T {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw Errors.invalidBody(prefix, 'must be a JSON object');
  if (!validator.check(value)) {
    const issue = validator.issues(value, 1)[0] ?? { path: '', rule: 'is invalid' };
    throw Errors.invalidBody(join(prefix, issue.path), issue.rule);
  }
  const metadata = (value as { metadata?: unknown }).metadata;
  if (metadata !== undefined && JSON.stringify(metadata).length > MAX_METADATA_CHARS) {
    throw Errors.invalidBody(join(prefix, 'metadata'), `must be at most ${MAX_METADATA_CHARS} characters as JSON`);
  }
  return value;
}

function join(prefix: string, path: string): string {
  return prefix && path ? `${prefix}.${path}` : prefix || path;
}
