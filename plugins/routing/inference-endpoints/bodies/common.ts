/**
 * Pieces shared by the inference body validators (chat, completions, embeddings, moderations):
 * the sampling fields both text endpoints take, and `compileBody`, which compiles a body schema
 * once and explains a failing union by the member that fits the value.
 */
import { compile, joinPath, Nullable, Type, type Issue, type TSchema, type Validator } from '../../../../core/schema.js';

// ---- shared field schemas (OpenAI allows null for all of these) ----

export const Model = Type.String({ minLength: 1 });
export const Penalty = Nullable(Type.Number({ minimum: -2, maximum: 2 }));
export const Temperature = Nullable(Type.Number({ minimum: 0, maximum: 2 }));
export const TopP = Nullable(Type.Number({ minimum: 0, maximum: 1 }));
export const N = Nullable(Type.Integer({ minimum: 1, maximum: 128 }));
export const Seed = Nullable(Type.Integer());
export const Stream = Nullable(Type.Boolean());
export const User = Type.String();
/** A token id of a tokenized prompt or input. */
export const TokenId = Type.Integer({ minimum: 0 });

/** Token id (a string of digits) to a bias; any other key is reported by name. */
export const LogitBias = Nullable(
  Type.Record(Type.String({ pattern: '^[0-9]+$' }), Type.Number({ minimum: -100, maximum: 100 }), {
    additionalProperties: Type.Never({ errorMessage: 'is not a token id' }),
  }),
);

export const Stop = Type.Union([Type.String(), Type.Array(Type.String(), { maxItems: 4 }), Type.Null()], {
  errorMessage: 'must be a string, an array of at most 4 strings or null',
});

export const StreamOptions = Nullable(Type.Object({ include_usage: Type.Optional(Type.Boolean()) }));

// ---- cross-field rules ----

/** `stream_options` only makes sense for a streamed answer. */
export function streamOptionsIssue(body: { stream?: boolean | null; stream_options?: unknown }): Issue | undefined {
  if (body.stream_options != null && body.stream !== true) {
    return { path: 'stream_options', rule: 'is only allowed when stream is true' };
  }
  return undefined;
}

// ---- compiling and explaining ----

export interface BodyValidator {
  check(body: unknown): boolean;
  /** Issues of a body that failed `check`, each as specific as the schema allows. */
  issues(body: unknown): Issue[];
}

/** Compiles `schema` once (call at module load). */
export function compileBody(schema: TSchema): BodyValidator {
  const validator = validatorFor(schema);
  return {
    check: (body) => validator.check(body),
    issues: (body) => validator.issues(body).map((issue) => explain(schema, body, issue)),
  };
}

/** The JSON-schema keywords this file walks (TSchema itself is typed loosely). */
interface Node {
  type?: string;
  const?: unknown;
  anyOf?: Node[];
  items?: Node;
  properties?: Record<string, Node>;
  patternProperties?: Record<string, Node>;
  additionalProperties?: boolean | Node;
}

// Member validators are compiled lazily and only when a body fails, then kept.
const validators = new WeakMap<object, Validator<unknown>>();

function validatorFor(schema: TSchema): Validator<unknown> {
  let validator = validators.get(schema);
  if (!validator) {
    validator = compile(schema);
    validators.set(schema, validator);
  }
  return validator;
}

/**
 * TypeBox reports a failing union only as a whole ("stop: must be a string, an array ... or
 * null"). When one member fits the value's shape, that member's first issue is more useful
 * ("stop: must have at most 4 item(s)", "messages.0.content.1.type: is required").
 */
function explain(root: TSchema, body: unknown, issue: Issue): Issue {
  const at = locate(root as Node, body, issue.path);
  if (!at?.node.anyOf) return issue;
  // A missing required union is reported with the union's errorMessage; say what happened.
  if (at.value === undefined) return issue.path ? { path: issue.path, rule: 'is required' } : issue;
  const member = memberFor(at.node.anyOf, at.value);
  const inner = member && validatorFor(member as TSchema).issues(at.value, 1)[0];
  if (!member || !inner) return issue;
  const explained = explain(member as TSchema, at.value, inner);
  return { path: explained.path ? joinPath(issue.path, explained.path) : issue.path, rule: explained.rule };
}

/** The schema node and value at a dot path, following objects, records and arrays. */
function locate(root: Node, body: unknown, path: string): { node: Node; value: unknown } | undefined {
  let node: Node | undefined = root;
  let value = body;
  if (path === '') return { node, value };
  for (const key of path.split('.')) {
    if (!node || value === null || typeof value !== 'object') return undefined;
    node = childOf(node, value, key);
    value = (value as Record<string, unknown>)[key];
  }
  return node ? { node, value } : undefined;
}

function childOf(node: Node, value: object, key: string): Node | undefined {
  if (node.anyOf) {
    const member = memberFor(node.anyOf, value);
    return member && childOf(member, value, key);
  }
  if (node.type === 'array') return node.items;
  if (node.type !== 'object') return undefined;
  const property = node.properties?.[key];
  if (property) return property;
  for (const [pattern, schema] of Object.entries(node.patternProperties ?? {})) {
    if (new RegExp(pattern).test(key)) return schema;
  }
  return typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined;
}

/**
 * The union member meant for `value`: the only one of its JSON type, else (several array
 * members, as in `prompt`) the one whose item type fits the first item.
 */
function memberFor(members: Node[], value: unknown): Node | undefined {
  const candidates = members.filter((m) => fits(m, value, false));
  if (candidates.length <= 1) return candidates[0];
  return candidates.find((m) => fits(m, value, true));
}

/** Whether `value` has the JSON type of `node` (literals: the exact value; `deep`: also the first array item). */
function fits(node: Node, value: unknown, deep: boolean): boolean {
  if (node.anyOf) return node.anyOf.some((m) => fits(m, value, deep));
  if ('const' in node) return node.const === value;
  switch (node.type) {
    case 'null': return value === null;
    case 'string': return typeof value === 'string';
    case 'boolean': return typeof value === 'boolean';
    case 'number':
    case 'integer': return typeof value === 'number';
    case 'object': return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      if (!Array.isArray(value)) return false;
      return !deep || value.length === 0 || !node.items || fits(node.items, value[0], true);
    default: return false;
  }
}
