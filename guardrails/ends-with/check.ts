/**
 * `default.endsWith`: passes when the text, trailing whitespace ignored, ends with `suffix` or with
 * `suffix` plus a full stop (as the existing ecosystem does). Inverted by `not`.
 */
import { defineCheck } from '../../core/index.js';
import { EndsWithParams } from './params.js';

export const endsWith = defineCheck({
  id: 'default.endsWith',
  params: EndsWithParams,
  check(input, params) {
    const text = (input.response ? input.response.text : input.request.text).trimEnd();
    const suffix = params.suffix;
    const ends = text.endsWith(suffix) || (text.endsWith('.') && text.length > suffix.length && text.endsWith(suffix, text.length - 1));
    const not = params.not === true;
    const verdict = ends !== not;
    if (verdict) return { verdict, data: { endsWith: ends } };
    return { verdict, data: { endsWith: ends, explanation: `the text ${ends ? 'ends' : 'does not end'} with the suffix` } };
  },
});
