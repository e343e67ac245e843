/**
 * JSON Schema validation with ajv 8, compiled once per schema object (the params of a cached
 * config keep their identity, so a request never compiles). One ajv per dialect, made on first use.
 * `pattern` and `patternProperties` run on core's linear-time engine, like every caller pattern.
 */
import { createRequire } from 'node:module';
import type { Ajv, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { compilePattern, type Pattern } from '../../core/index.js';

// ajv (CommonJS) is required on first use, synchronously since config validation is: a gateway
// whose configs hold no JSON-schema check never loads it.
const require = createRequire(import.meta.url);

let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;
const compiled = new WeakMap<object, ValidateFunction>();

/** Compiles (or returns the compiled) validator; throws when the schema itself is invalid. */
export function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajvFor(schema).compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

function ajvFor(schema: Record<string, unknown>): Ajv | Ajv2020 {
  const dialect = schema['$schema'];
  if (typeof dialect === 'string' && dialect.includes('2020-12')) {
    const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    return (draft2020 ??= new Ajv2020({ allErrors: true, strict: false, code: { regExp: linearRegExp } }));
  }
  const { Ajv } = require('ajv') as typeof import('ajv');
  return (draft07 ??= new Ajv({ allErrors: true, strict: false, code: { regExp: linearRegExp } }));
}

/** ajv's hook for compiling schema patterns: a throw makes the schema invalid, with the rule. */
function linearRegExp(source: string): Pattern {
  const pattern = compilePattern(source);
  if (typeof pattern === 'string') throw new Error(`pattern "${source.length > 100 ? source.slice(0, 100) + '…' : source}" ${pattern}`);
  return pattern;
}
// ajv names the engine in generated standalone code only; these validators are never exported.
linearRegExp.code = 'linearRegExp';
