/**
 * The field operators of conditional queries. Each checks its operand once, when the config is
 * validated, and returns a test on the request's value (or the rule the operand breaks).
 *
 * Equality is strict (`"3"` is not `3`; metadata values are strings). Comparisons read the value
 * as a number: a number as is, a numeric string converted; anything else never matches.
 */
import type { RegexCache } from './regex-cache.js';

export type Test = (value: unknown) => boolean;
export type Scalar = string | number | boolean | null;

export interface OperatorLimits {
  /** Longest `$regex` pattern accepted, in characters. */
  readonly maxRegexLength: number;
}

interface BuildEnv {
  readonly limits: OperatorLimits;
  readonly regexes: RegexCache;
}

type Build = (operand: unknown, env: BuildEnv) => Test | string;

const SCALAR_RULE = 'must be a string, number, boolean or null';
const LIST_RULE = 'must be an array of strings, numbers, booleans or null';
const NUMBER_RULE = 'must be a number';

export function isScalar(value: unknown): value is Scalar {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

export const equals = (operand: Scalar): Test => (value) => value === operand;

function asNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return NaN; // every comparison with NaN is false
}

function comparison(compare: (value: number, operand: number) => boolean): Build {
  return (operand) => {
    if (typeof operand !== 'number' || !Number.isFinite(operand)) return NUMBER_RULE;
    return (value) => compare(asNumber(value), operand);
  };
}

function list(operand: unknown): Set<Scalar> | string {
  if (!Array.isArray(operand)) return LIST_RULE;
  for (const item of operand) if (!isScalar(item)) return LIST_RULE;
  return new Set(operand as Scalar[]);
}

const regex: Build = (operand, env) => {
  if (typeof operand !== 'string') return 'must be a string (a regular expression)';
  if (operand.length > env.limits.maxRegexLength) return `must be at most ${env.limits.maxRegexLength} characters`;
  const compiled = env.regexes.get(operand);
  if (typeof compiled === 'string') return compiled;
  return (value) => {
    if (typeof value === 'string') return compiled.test(value);
    if (typeof value === 'number' || typeof value === 'boolean') return compiled.test(String(value));
    return false;
  };
};

export const OPERATORS: Readonly<Record<string, Build>> = Object.freeze({
  $eq: (operand) => (isScalar(operand) ? equals(operand) : SCALAR_RULE),
  $ne: (operand) => (isScalar(operand) ? (value) => value !== operand : SCALAR_RULE),
  $gt: comparison((v, x) => v > x),
  $gte: comparison((v, x) => v >= x),
  $lt: comparison((v, x) => v < x),
  $lte: comparison((v, x) => v <= x),
  $in: (operand) => {
    const set = list(operand);
    return typeof set === 'string' ? set : (value) => set.has(value as Scalar);
  },
  $nin: (operand) => {
    const set = list(operand);
    return typeof set === 'string' ? set : (value) => !set.has(value as Scalar);
  },
  $regex: regex,
});

export const FIELD_OPERATOR_NAMES = Object.keys(OPERATORS).join(', ');

export function buildOperator(name: string, operand: unknown, env: BuildEnv): Test | string {
  const build = Object.hasOwn(OPERATORS, name) ? OPERATORS[name] : undefined;
  if (!build) return `unknown operator (field operators: ${FIELD_OPERATOR_NAMES}; $and and $or combine whole queries)`;
  return build(operand, env);
}

export type { BuildEnv };
