/**
 * Compiles a conditional query into a predicate on the request context, once per config:
 *   { "<key>": <value> | { "<$op>": <operand>, ... }, "$and": [query, ...], "$or": [query, ...] }
 * Every key of a query must hold (AND), every operator on a key must hold (AND), a bare value
 * means equality, an empty query always holds. Problems become issues at their exact path
 * (`strategy.conditions.0.query.metadata.tier.$regex`), so a bad query fails validation, not a request.
 */
import type { Issue, RequestContext } from '../../../core/index.js';
import { compileKey } from './context-path.js';
import { buildOperator, equals, isScalar, type BuildEnv, type OperatorLimits, type Test } from './operators.js';

export type Predicate = (ctx: RequestContext) => boolean;

export interface QueryLimits extends OperatorLimits {
  /** How deeply `$and` / `$or` may nest. */
  readonly maxDepth: number;
}

export interface QueryEnv extends BuildEnv {
  readonly limits: QueryLimits;
}

const always: Predicate = () => true;

/** The predicate of `query`, or undefined when issues were pushed. `path` names the query itself. */
export function compileQuery(query: unknown, path: string, env: QueryEnv, issues: Issue[], depth = 0): Predicate | undefined {
  if (!isPlainObject(query)) {
    issues.push({ path, rule: 'must be an object (a query)' });
    return undefined;
  }
  const before = issues.length;
  const parts: Predicate[] = [];
  for (const key of Object.keys(query)) {
    const at = `${path}.${key}`;
    let part: Predicate | undefined;
    if (key === '$and' || key === '$or') part = compileCombination(key, query[key], at, env, issues, depth);
    else if (key.startsWith('$')) issues.push({ path: at, rule: 'unknown operator (a query combines with $and and $or; field operators go inside a field, e.g. {"metadata.tier": {"$in": [...]}})' });
    else part = compileField(key, query[key], at, env, issues);
    if (part) parts.push(part);
  }
  return issues.length > before ? undefined : allOf(parts);
}

function compileCombination(op: '$and' | '$or', value: unknown, path: string, env: QueryEnv, issues: Issue[], depth: number): Predicate | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    issues.push({ path, rule: 'must be a non-empty array of queries' });
    return undefined;
  }
  if (depth >= env.limits.maxDepth) {
    issues.push({ path, rule: `nests $and/$or deeper than ${env.limits.maxDepth} levels` });
    return undefined;
  }
  const before = issues.length;
  const parts: Predicate[] = [];
  for (let i = 0; i < value.length; i++) {
    const part = compileQuery(value[i], `${path}.${i}`, env, issues, depth + 1);
    if (part) parts.push(part);
  }
  if (issues.length > before) return undefined;
  return op === '$and' ? allOf(parts) : anyOf(parts);
}

function compileField(key: string, value: unknown, path: string, env: QueryEnv, issues: Issue[]): Predicate | undefined {
  const get = compileKey(key);
  if (typeof get === 'string') {
    issues.push({ path, rule: get });
    return undefined;
  }
  let test: Test | undefined;
  if (isScalar(value)) {
    test = equals(value);
  } else if (Array.isArray(value)) {
    issues.push({ path, rule: 'must be a value or an operator object (use $in to match one of several values)' });
  } else {
    test = compileOperators(value as Record<string, unknown>, path, env, issues);
  }
  if (!test) return undefined;
  const matches = test;
  return (ctx) => matches(get(ctx));
}

function compileOperators(ops: Record<string, unknown>, path: string, env: QueryEnv, issues: Issue[]): Test | undefined {
  const names = Object.keys(ops);
  if (names.length === 0) {
    issues.push({ path, rule: 'must name at least one operator' });
    return undefined;
  }
  const before = issues.length;
  const tests: Test[] = [];
  for (const name of names) {
    const test = buildOperator(name, ops[name], env);
    if (typeof test === 'string') issues.push({ path: `${path}.${name}`, rule: test });
    else tests.push(test);
  }
  if (issues.length > before) return undefined;
  if (tests.length === 1) return tests[0];
  return (value) => {
    for (const test of tests) if (!test(value)) return false;
    return true;
  };
}

function allOf(parts: Predicate[]): Predicate {
  if (parts.length === 0) return always;
  if (parts.length === 1) return parts[0]!;
  return (ctx) => {
    for (const part of parts) if (!part(ctx)) return false;
    return true;
  };
}

function anyOf(parts: Predicate[]): Predicate {
  if (parts.length === 1) return parts[0]!;
  return (ctx) => {
    for (const part of parts) if (part(ctx)) return true;
    return false;
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
