/**
 * `default.jsonSchema`: passes when the JSON found in the text (see core's extractJson) is valid
 * against `schema`; with several candidates, one valid candidate is enough. No JSON at all counts
 * as "does not match". Inverted by `not`. A schema ajv cannot compile is a config error.
 */
import { defineCheck, extractJson, type Issue } from '../../core/index.js';
import { JsonSchemaParams } from './params.js';
import { validatorFor } from './validators.js';

const MAX_ERRORS = 10;

export const jsonSchema = defineCheck({
  id: 'default.jsonSchema',
  params: JsonSchemaParams,
  check(input, params) {
    const text = input.response ? input.response.text : input.request.text;
    const validate = validatorFor(params.schema);
    const not = params.not === true;
    const candidates = extractJson(text);
    let errors: { path: string; message: string }[] = [];
    let valid = false;
    for (const candidate of candidates) {
      if (validate(candidate)) {
        valid = true;
        break;
      }
      if (errors.length === 0) {
        errors = (validate.errors ?? []).slice(0, MAX_ERRORS).map((e) => ({ path: e.instancePath || '/', message: e.message ?? 'is invalid' }));
      }
    }
    const verdict = valid !== not;
    const data = { jsonFound: candidates.length > 0, valid, ...(valid ? {} : { validationErrors: errors }) };
    if (verdict) return { verdict, data };
    const explanation = candidates.length === 0
      ? 'no JSON found in the text'
      : valid ? 'the JSON is valid against the schema' : 'the JSON is not valid against the schema';
    return { verdict, data: { ...data, explanation } };
  },
  validate(params: JsonSchemaParams): Issue[] {
    try {
      validatorFor(params.schema);
      return [];
    } catch (e) {
      return [{ path: 'schema', rule: `is not a valid JSON Schema (${(e as Error).message})` }];
    }
  },
});
