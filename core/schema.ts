/**
 * TypeBox enters the codebase here (through vendor/typebox.ts). Schemas are compiled once (at boot or on first use) and
 * their errors turned into "path: rule" issues that name the offending field.
 */
import { Type, Kind, TypeCompiler, Value, ValueErrorType, type Static, type TSchema, type TypeCheck, type ValueError } from './vendor/typebox.js';

export { Type, Kind, Value };
export type { TSchema, Static, TypeCheck };

/** One broken rule: `path` in dot notation with array indices (`targets.1.retry.attempts`). */
export interface Issue {
  path: string;
  rule: string;
}

export interface Validator<T> {
  readonly schema: TSchema;
  check(value: unknown): value is T;
  /** Issues for a value that failed `check` (the first few, most specific first). */
  issues(value: unknown, max?: number): Issue[];
}

/**
 * The checker is compiled on the first check, not here: plugins make a hundred or so validators
 * while they load, and most of them serve routes a given gateway may never be asked for.
 */
export function compile<S extends TSchema>(schema: S): Validator<Static<S>> {
  let compiled: TypeCheck<S> | undefined;
  const checker = () => (compiled ??= TypeCompiler.Compile(schema));
  return {
    schema,
    check: (value: unknown): value is Static<S> => checker().Check(value),
    issues: (value: unknown, max = 5) => collectIssues(checker().Errors(value), max),
  };
}

function collectIssues(errors: Iterable<ValueError>, max: number): Issue[] {
  const out: Issue[] = [];
  const seen = new Set<string>();
  for (const error of unknownKeysFirst(errors)) {
    const issue = toIssue(error);
    const key = issue.path + '|' + issue.rule;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
    if (out.length >= max) break;
  }
  return out;
}

/** A misspelt key also leaves the right one missing: naming the unknown key first says what to fix. */
function unknownKeysFirst(errors: Iterable<ValueError>): ValueError[] {
  const all = [...errors];
  const unknown = all.filter((e) => e.type === ValueErrorType.ObjectAdditionalProperties);
  return unknown.length === 0 ? all : [...unknown, ...all.filter((e) => e.type !== ValueErrorType.ObjectAdditionalProperties)];
}

export function pointerToPath(pointer: string): string {
  if (!pointer) return '';
  return pointer.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~')).join('.');
}

/** Appends `key` to a dot path. */
export function joinPath(base: string, key: string | number): string {
  return base ? `${base}.${key}` : String(key);
}

function toIssue(e: ValueError): Issue {
  const s = e.schema as Record<string, unknown>;
  const path = pointerToPath(e.path);
  if (e.type === ValueErrorType.ObjectRequiredProperty) return { path, rule: 'is required' };
  const custom = s['errorMessage'];
  if (typeof custom === 'string') return { path, rule: custom };
  switch (e.type) {
    case ValueErrorType.ObjectAdditionalProperties: return { path, rule: 'is not an allowed key' };
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum: return { path, rule: `must be >= ${s['minimum']}` };
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum: return { path, rule: `must be <= ${s['maximum']}` };
    case ValueErrorType.NumberExclusiveMinimum:
    case ValueErrorType.IntegerExclusiveMinimum: return { path, rule: `must be > ${s['exclusiveMinimum']}` };
    case ValueErrorType.ArrayMinItems: return { path, rule: `must have at least ${s['minItems']} item(s)` };
    case ValueErrorType.ArrayMaxItems: return { path, rule: `must have at most ${s['maxItems']} item(s)` };
    case ValueErrorType.StringMinLength: return { path, rule: `must be at least ${s['minLength']} character(s)` };
    case ValueErrorType.StringMaxLength: return { path, rule: `must be at most ${s['maxLength']} character(s)` };
    case ValueErrorType.ObjectMaxProperties: return { path, rule: `must have at most ${s['maxProperties']} key(s)` };
    case ValueErrorType.ObjectMinProperties: return { path, rule: `must have at least ${s['minProperties']} key(s)` };
    case ValueErrorType.StringPattern: return { path, rule: `must match ${s['pattern']}` };
    case ValueErrorType.StringFormat: return { path, rule: `must be a valid ${s['format']}` };
    case ValueErrorType.Integer: return { path, rule: 'must be an integer' };
    case ValueErrorType.Number: return { path, rule: 'must be a number' };
    case ValueErrorType.String: return { path, rule: 'must be a string' };
    case ValueErrorType.Boolean: return { path, rule: 'must be a boolean' };
    case ValueErrorType.Array: return { path, rule: 'must be an array' };
    case ValueErrorType.Object: return { path, rule: 'must be an object' };
    case ValueErrorType.Literal: return { path, rule: `must be ${JSON.stringify(s['const'])}` };
    case ValueErrorType.Union: return { path, rule: describeUnion(s) };
    default: return { path, rule: e.message.replace(/^Expected/, 'must be').toLowerCase() };
  }
}

function describeUnion(s: Record<string, unknown>): string {
  const members = (s['anyOf'] as Record<string, unknown>[] | undefined) ?? [];
  if (members.length > 0 && members.every((m) => 'const' in m)) {
    return 'must be one of ' + members.map((m) => JSON.stringify(m['const'])).join(', ');
  }
  const kinds = members.map((m) => ('const' in m ? JSON.stringify(m['const']) : String(m['type'] ?? m[Kind as unknown as string] ?? 'value')));
  return 'must be ' + [...new Set(kinds)].join(' or ');
}

/** `Type.Union` of string literals, reported as "must be one of ...". */
export function StringEnum<T extends string[]>(values: [...T], options: Record<string, unknown> = {}) {
  return Type.Union(values.map((v) => Type.Literal(v)), options);
}

/** A nullable variant, as OpenAI's schemas allow `null` for most optional fields. */
export function Nullable<S extends TSchema>(schema: S) {
  return Type.Union([schema, Type.Null()], { errorMessage: nullableMessage(schema) });
}

function nullableMessage(schema: TSchema): string {
  const s = schema as Record<string, unknown>;
  const type = s['type'] === 'integer' ? 'an integer' : s['type'] === 'number' ? 'a number' : s['type'] === 'boolean' ? 'a boolean' : s['type'] === 'string' ? 'a string' : s['type'] === 'object' ? 'an object' : s['type'] === 'array' ? 'an array' : 'valid';
  const range: string[] = [];
  if (s['minimum'] !== undefined) range.push(`>= ${s['minimum']}`);
  if (s['maximum'] !== undefined) range.push(`<= ${s['maximum']}`);
  return `must be ${type}${range.length ? ' ' + range.join(' and ') : ''} or null`;
}

/** Validates plugin options with defaults applied; returns a frozen copy or throws with the issues. */
export function parseOptions<S extends TSchema>(schema: S, input: unknown, owner: string): Static<S> {
  const value = Value.Default(schema, structuredClone(input ?? {}));
  const checker = TypeCompiler.Compile(schema);
  if (!checker.Check(value)) {
    const list = unknownKeysFirst(checker.Errors(value)).slice(0, 5).map((e) => {
      const issue = toIssue(e);
      const rule = e.type === ValueErrorType.ObjectAdditionalProperties ? `is not an option of ${owner}${knownKeys(e.schema)}` : issue.rule;
      return `${issue.path || '(root)'}: ${rule}`;
    });
    throw new Error(`${owner}: invalid options: ${[...new Set(list)].join('; ')}`);
  }
  return deepFreeze(value) as Static<S>;
}

function knownKeys(schema: TSchema): string {
  const keys = Object.keys((schema as { properties?: object }).properties ?? {});
  return keys.length > 0 ? ` (known: ${keys.join(', ')})` : ' (it takes none here)';
}

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}
